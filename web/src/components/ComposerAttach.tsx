// Photos and files for a prompt, before it is sent: picked with the
// camera or from the phone's photos and files (the Attach menu), pasted
// or dropped on desktop. Each is uploaded to lab at once and shown as a
// chip (a thumbnail for an image) that can be removed; the prompt names
// the ready ones by their upload ids. Used by the composer and the
// new-run form.

import { createSignal, For, onCleanup, Show } from "solid-js";
import { errorText, type Upload } from "../api";
import "../styles/uploads.css";

export interface PendingFile {
  key: number;
  name: string;
  /** An object URL showing an image before it is sent. */
  preview?: string;
  status: "uploading" | "ready" | "failed";
  upload?: Upload;
  error?: string;
}

export type Attachments = ReturnType<typeof createAttachments>;

/** createAttachments keeps the files picked for one prompt; upload sends one to lab. */
export function createAttachments(upload: (f: File) => Promise<Upload>) {
  const [files, setFiles] = createSignal<PendingFile[]>([]);
  let next = 1;

  const patch = (key: number, p: Partial<PendingFile>) => setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, ...p } : f)));

  function add(list: Iterable<File> | null | undefined) {
    for (const file of list ?? []) {
      const key = next++;
      const preview = file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined;
      setFiles((fs) => [...fs, { key, name: file.name || "pasted image", preview, status: "uploading" }]);
      upload(file).then(
        (u) => patch(key, { status: "ready", upload: u }),
        (e) => patch(key, { status: "failed", error: errorText(e) }),
      );
    }
  }

  function remove(key: number) {
    const f = files().find((f) => f.key === key);
    if (f?.preview) URL.revokeObjectURL(f.preview);
    setFiles((fs) => fs.filter((f) => f.key !== key));
  }

  function clear() {
    for (const f of files()) if (f.preview) URL.revokeObjectURL(f.preview);
    setFiles([]);
  }
  onCleanup(clear);

  /** paste takes the files of a paste (a screenshot copied on desktop); text pastes pass. */
  function paste(e: ClipboardEvent) {
    const fs = e.clipboardData?.files;
    if (fs && fs.length > 0) {
      e.preventDefault();
      add(fs);
    }
  }

  function drop(e: DragEvent) {
    const fs = e.dataTransfer?.files;
    if (fs && fs.length > 0) {
      e.preventDefault();
      add(fs);
    }
  }

  return {
    files,
    add,
    remove,
    clear,
    paste,
    drop,
    /** ids are the uploads ready to send, in the order picked. */
    ids: () => files().flatMap((f) => (f.status === "ready" && f.upload ? [f.upload.upload_id] : [])),
    uploading: () => files().some((f) => f.status === "uploading"),
    failed: () => files().some((f) => f.status === "failed"),
  };
}

/** AttachButton opens the Attach menu: the camera, or photos and files. */
export function AttachButton(props: { att: Attachments; disabled?: boolean }) {
  const [open, setOpen] = createSignal(false);
  let camera: HTMLInputElement | undefined;
  let picker: HTMLInputElement | undefined;
  const pick = (input: HTMLInputElement | undefined) => {
    setOpen(false);
    input?.click();
  };
  const take = (e: Event & { currentTarget: HTMLInputElement }) => {
    props.att.add(e.currentTarget.files);
    e.currentTarget.value = "";
  };
  return (
    <div class="attach-menu-wrap">
      <button
        type="button"
        class="btn attach-btn"
        aria-label="Attach a photo or file"
        aria-expanded={open()}
        disabled={props.disabled}
        onClick={() => setOpen(!open())}
        data-action="attach"
      >
        +
      </button>
      <Show when={open()}>
        <div class="attach-menu" role="menu">
          <button type="button" role="menuitem" class="btn" onClick={() => pick(camera)} data-action="attach-camera">
            Take a photo
          </button>
          <button type="button" role="menuitem" class="btn" onClick={() => pick(picker)} data-action="attach-file">
            Photo or file
          </button>
        </div>
      </Show>
      <input ref={camera} type="file" accept="image/*" capture="environment" hidden onChange={take} data-input="camera" />
      <input ref={picker} type="file" multiple hidden onChange={take} data-input="files" />
    </div>
  );
}

/** AttachChips lists the files picked for the prompt, each removable. */
export function AttachChips(props: { att: Attachments }) {
  return (
    <Show when={props.att.files().length > 0}>
      <ul class="attach-chips" aria-label="Attached">
        <For each={props.att.files()}>
          {(f) => (
            <li class={`attach-chip s-${f.status}`} data-status={f.status} title={f.error ?? f.name}>
              <Show when={f.preview} fallback={<span class="attach-icon" aria-hidden="true">📄</span>}>
                <img src={f.preview} alt="" />
              </Show>
              <span class="attach-name">{f.status === "failed" ? `${f.name}: ${f.error}` : f.name}</span>
              <Show when={f.status === "uploading"}>
                <span class="muted small" aria-label="uploading">…</span>
              </Show>
              <button type="button" class="link" aria-label={`Remove ${f.name}`} onClick={() => props.att.remove(f.key)}>
                ✕
              </button>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
