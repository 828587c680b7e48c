// A file as it is now, read-only, with line numbers; a file past the
// server's cap ends in a marker saying so, a binary file is only named.

import { For, Show } from "solid-js";
import { errorText } from "../api";
import type { FileView } from "./api";
import { fetched } from "./fetched";

export function FileText(props: { load: () => Promise<FileView> }) {
  const file = fetched(() => true, () => props.load());
  const lines = () => {
    const t = file.data()?.text ?? "";
    return (t.endsWith("\n") ? t.slice(0, -1) : t).split("\n");
  };
  return (
    <>
      <Show when={file.error()}>
        <p class="notice error" role="alert">
          {errorText(file.error())}
        </p>
      </Show>
      <Show when={file.data()}>
        {(f) => (
          <Show
            when={!f().binary}
            fallback={
              <p class="notice" data-file-binary>
                A binary file ({f().size} bytes): nothing to show as text.
              </p>
            }
          >
            <div class="lines file-lines" data-testid="file">
              <For each={lines()}>
                {(l, i) => (
                  <div class="dl">
                    <span class="ln">{i() + 1}</span>
                    <span class="lt">{l}</span>
                  </div>
                )}
              </For>
            </div>
            <Show when={f().truncated}>
              <p class="notice" data-file-truncated>
                Cut here: the file is {kb(f().size)}; lab shows its first {kb(f().text.length)}.
              </p>
            </Show>
          </Show>
        )}
      </Show>
    </>
  );
}

function kb(n: number): string {
  return n < 1024 ? `${n} bytes` : `${Math.round(n / 1024)} KB`;
}
