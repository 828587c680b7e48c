// The images and files a prompt came with, under its bubble: a thumbnail
// per image (its bytes served by lab from the transcript, so history and
// other devices show it too; a tap opens it whole) and a chip per file.
// The chat says whose attachments these are through AttachmentsOf.

import { createContext, For, Show, useContext } from "solid-js";
import { attachmentURL, type AttachedFile } from "../api";
import "../styles/uploads.css";

/** Whose chat this is: a run's or a history session's, for the image URLs. */
export const AttachmentsOf = createContext<() => { kind: "runs" | "sessions"; id: string } | undefined>(() => undefined);

export function Attachments(props: { seq: number; items: AttachedFile[] }) {
  const of = useContext(AttachmentsOf);
  const url = (n: number) => {
    const o = of();
    return o ? attachmentURL(o.kind, o.id, props.seq, n) : "";
  };
  return (
    <div class="attachments" data-attachments={props.items.length}>
      <For each={props.items}>
        {(a, i) => (
          <Show
            when={a.kind === "image" && url(i())}
            fallback={
              <span class="file-chip" data-attachment="file" title={a.name}>
                <span aria-hidden="true">📄</span> {a.name || (a.kind === "image" ? "image" : "file")}
              </span>
            }
          >
            <a class="thumb" href={url(i())} target="_blank" rel="noopener" data-attachment="image">
              <img src={url(i())} alt={a.name ? `Attached image ${a.name}` : "Attached image"} loading="lazy" decoding="async" />
            </a>
          </Show>
        )}
      </For>
    </div>
  );
}
