// The new-run form's folder field: a text input ("~/…" works) with the
// server's folder suggestions below it while it has the focus — recent
// folders and git repositories first. Tapping a folder puts it in the
// field and lists what is inside it, so the operator can walk down
// without typing. Suggestions keep the input focused (pointerdown does
// not blur it), so the list does not vanish under the finger.

import { createSignal, For, onCleanup, Show } from "solid-js";
import { api, type Folder } from "../api";
import { childrenQuery, folderName, tilde } from "../lib/folders";
import "../styles/folders.css";

const shown = 12;

/** FolderPicker offers folders of this lab, or of machine (a peer's name). */
export function FolderPicker(props: { value: string; machine?: string; onChange: (v: string) => void }) {
  const [open, setOpen] = createSignal(false);
  const [items, setItems] = createSignal<Folder[]>([]);
  const [home, setHome] = createSignal("");
  const [more, setMore] = createSignal(false);
  const [error, setError] = createSignal("");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  onCleanup(() => {
    clearTimeout(timer);
    clearTimeout(closer);
  });

  async function load(q: string) {
    const gen = ++generation;
    try {
      const r = await api.folders(q, shown, props.machine);
      if (gen !== generation) return; // a newer query superseded this one
      setItems(r.folders ?? []);
      setHome(r.home);
      setMore(r.truncated);
      setError("");
    } catch (e) {
      if (gen !== generation) return;
      setItems([]);
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  const soon = (q: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => load(q), 150);
  };

  function pick(f: Folder) {
    const v = tilde(f.path, home());
    props.onChange(v);
    clearTimeout(timer);
    load(childrenQuery(v));
  }

  return (
    <div class="folder-picker">
      <label>
        Folder
        <input
          name="cwd"
          value={props.value}
          onInput={(e) => {
            props.onChange(e.currentTarget.value);
            setOpen(true);
            soon(e.currentTarget.value.trim());
          }}
          onFocus={() => {
            clearTimeout(closer);
            setOpen(true);
            load(props.value.trim());
          }}
          onBlur={() => {
            // Late, so a tap that moved the focus lands where it was aimed
            // before the list folds away under it.
            clearTimeout(closer);
            closer = setTimeout(() => setOpen(false), 200);
          }}
          placeholder="~/project"
          required
          autocapitalize="off"
          autocomplete="off"
          spellcheck={false}
          role="combobox"
          aria-expanded={open()}
          aria-controls="folder-list"
        />
      </label>
      <Show when={open() && (items().length > 0 || error())}>
        <ul class="folder-list" id="folder-list" role="listbox" aria-label="Folders">
          <For each={items()}>
            {(f) => (
              <li role="option" aria-selected={false}>
                <button type="button" class="folder" data-folder={f.path} onPointerDown={(e) => e.preventDefault()} onClick={() => pick(f)}>
                  <span class="folder-text">
                    <span class="folder-name">{folderName(tilde(f.path, home()))}</span>
                    <span class="folder-path muted">{tilde(f.path, home())}</span>
                  </span>
                  <Show when={f.recent}>
                    <span class="tag">recent</span>
                  </Show>
                  <Show when={f.git}>
                    <span class="tag git">git</span>
                  </Show>
                </button>
              </li>
            )}
          </For>
          <Show when={more()}>
            <li class="muted folder-more">More folders: keep typing to narrow.</li>
          </Show>
          <Show when={error()}>
            <li class="error folder-more" role="alert">
              {error()}
            </li>
          </Show>
        </ul>
      </Show>
    </div>
  );
}
