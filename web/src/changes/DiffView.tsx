// One file's diff in the changes sheet: rows with old and new line
// numbers, long lines wrapping inside the block. A tap on a line selects
// it and offers Comment: a note sent to the agent as a reply quoting
// path:line and the line (queued like any reply while the agent works).

import { createSignal, For, Show } from "solid-js";
import { errorText } from "../api";
import { changesApi, type FileChange, type Since } from "./api";
import { commentText, diffRows, type DiffRow } from "./diff";
import { fetched } from "./fetched";
import { Alert } from "../components/Alert";

export function DiffView(props: {
  runId: string;
  file: FileChange;
  since: Since;
  onReply?: (text: string) => Promise<void>;
  onSent: () => void;
  onFile: () => void;
}) {
  const diff = fetched(
    () => [props.runId, props.file.path, props.since] as const,
    ([id, path, since]) => changesApi.diff(id, path, since),
  );
  const rows = () => diffRows(diff.data()?.diff ?? "");
  const [selected, setSelected] = createSignal(-1);
  const [composing, setComposing] = createSignal(false);
  const [note, setNote] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal("");
  const selectable = (r: DiffRow) => r.kind === "add" || r.kind === "del" || r.kind === "ctx";

  function pick(i: number) {
    if (!selectable(rows()[i]!)) return;
    setSelected(selected() === i ? -1 : i);
    setComposing(false);
    setError("");
  }

  async function send() {
    const row = rows()[selected()];
    if (!row || !props.onReply || note().trim() === "" || busy()) return;
    setBusy(true);
    setError("");
    try {
      await props.onReply(commentText(props.file.path, row, note()));
      props.onSent();
    } catch (e) {
      setError(errorText(e)); // the note stays in its field
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div class="diff-head">
        <span class={`st-mark st-${props.file.status}`}>{props.file.status}</span>
        <Show when={!props.file.binary && !props.file.submodule}>
          <span class="small">
            <span class="plus">+{props.file.added}</span> <span class="minus">−{props.file.removed}</span>
          </span>
        </Show>
        <span class="grow" />
        <Show when={props.file.status !== "deleted"}>
          <button class="btn" onClick={props.onFile} data-action="view-file">
            View file
          </button>
        </Show>
      </div>
      <Show when={diff.error()}>
        <p class="notice error" role="alert">
          {errorText(diff.error())}
        </p>
      </Show>
      <Show when={diff.data()?.note}>
        {(note) => (
          <p class="notice" data-diff-note>
            {note()}
          </p>
        )}
      </Show>
      <Show when={props.onReply && rows().length}>
        <p class="muted small hint">Tap a line to comment on it.</p>
      </Show>
      <Show when={rows().length}>
        <div class="lines" data-testid="diff">
          <For each={rows()}>
            {(r, i) => (
              <>
                <div
                  class={`dl dl-${r.kind}${selected() === i() ? " sel" : ""}`}
                  role={selectable(r) ? "button" : undefined}
                  tabIndex={selectable(r) ? 0 : undefined}
                  aria-pressed={selectable(r) ? selected() === i() : undefined}
                  onClick={() => pick(i())}
                  onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), pick(i()))}
                  data-diff-row={r.kind}
                  data-line={r.new ?? r.old ?? ""}
                >
                  <span class="ln">{r.old ?? ""}</span>
                  <span class="ln">{r.new ?? ""}</span>
                  <span class="lt">
                    <Show when={r.kind === "add" || r.kind === "del"}>
                      <span class="mark" aria-hidden="true">
                        {r.kind === "add" ? "+" : "−"}
                      </span>
                    </Show>
                    {r.text}
                  </span>
                </div>
                <Show when={selected() === i() && props.onReply}>
                  <div class="comment-bar" data-comment-bar>
                    <Show
                      when={composing()}
                      fallback={
                        <button class="btn primary" onClick={() => setComposing(true)} data-action="comment">
                          Comment
                        </button>
                      }
                    >
                      <textarea
                        name="comment"
                        rows={3}
                        value={note()}
                        placeholder={`What should the agent do about line ${r.new ?? r.old}?`}
                        onInput={(e) => setNote(e.currentTarget.value)}
                        ref={(el) => queueMicrotask(() => el.focus())}
                        aria-label="Comment"
                      />
                      <Alert error={error()} />
                      <button class="btn" onClick={() => setSelected(-1)}>
                        Cancel
                      </button>
                      <button class="btn primary" disabled={busy() || note().trim() === ""} onClick={send} data-action="send-comment">
                        Send to the agent
                      </button>
                    </Show>
                  </div>
                </Show>
              </>
            )}
          </For>
        </div>
      </Show>
    </>
  );
}
