// The bottom of a live chat. Its shape follows the conversation:
// - a dialog is pending: a one-line note pointing at the card, plus
//   Interrupt, confirmed first since it dismisses the question (free text
//   cannot answer a focused picker);
// - state question but no structured dialog: a locked note, plus Interrupt;
// - ended: a note;
// - otherwise a multi-line composer (Enter sends with a fine pointer, the
//   button sends on phones) and Interrupt while the agent works.

import { createSignal, Match, Show, Switch } from "solid-js";
import { isOffline, type State } from "../api";
import { ConfirmInterrupt } from "./ConfirmInterrupt";

export interface ComposerProps {
  state: State | null;
  /** Out of touch with lab: the state is only the last known. */
  stale?: boolean;
  pending: boolean;
  onReply: (text: string) => Promise<void>;
  onInterrupt: () => Promise<void>;
  onShowCard: () => void;
}

const finePointer = () => typeof matchMedia === "function" && matchMedia("(pointer: fine)").matches;

export function Composer(props: ComposerProps) {
  const [text, setText] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal("");

  async function act(fn: () => Promise<void>) {
    setBusy(true);
    setError("");
    try {
      await fn();
      return true;
    } catch (e) {
      // Offline is already said once, above the chat; here only what
      // happened to what was typed.
      setError(isOffline(e) ? "Not sent: lab is unreachable. Your text is kept." : e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  let box: HTMLTextAreaElement | undefined;

  async function send() {
    const t = text();
    if (t.trim() === "" || busy()) return;
    if (await act(() => props.onReply(t))) {
      // Back to one line, and the keyboard stays up for the next reply.
      setText("");
      if (box) {
        box.value = "";
        box.style.height = "";
        box.focus();
      }
    }
  }

  const interrupt = (
    <button class="btn" disabled={busy()} onClick={() => act(props.onInterrupt)} data-action="interrupt">
      Interrupt
    </button>
  );

  return (
    <footer class="composer">
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Switch>
        <Match when={props.state === "ended"}>
          <div class="note-line muted">This run has ended.</div>
        </Match>
        <Match when={props.pending}>
          <div class="note-line waiting" data-composer="waiting">
            <button class="link grow" onClick={props.onShowCard}>
              ↑ Answer the card above
            </button>
            <ConfirmInterrupt disabled={busy()} onInterrupt={() => void act(props.onInterrupt)} />
          </div>
        </Match>
        <Match when={props.state === "question"}>
          <div class="note-line locked" data-composer="locked">
            <span class="grow muted">{props.stale ? "Last known: the agent waited for input at the terminal." : "The agent waits for input at the terminal."}</span>
            {interrupt}
          </div>
        </Match>
        <Match when={true}>
          <div class="compose" data-composer="open">
            <textarea
              name="reply"
              rows={1}
              ref={box}
              placeholder={props.stale ? "Reply (sent when lab is back)…" : props.state === "working" ? "Queue a reply…" : "Reply…"}
              value={text()}
              readOnly={busy()}
              onInput={(e) => {
                setText(e.currentTarget.value);
                grow(e.currentTarget);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing && finePointer()) {
                  e.preventDefault();
                  void send();
                }
              }}
              aria-label="Reply"
            />
            <div class="compose-actions">
              <Show when={props.state === "working"}>{interrupt}</Show>
              <button
                class="btn primary"
                disabled={busy() || text().trim() === ""}
                // Tapping Send must not move the focus off the textarea,
                // or the phone's keyboard would drop after every reply.
                onPointerDown={(e) => e.preventDefault()}
                onClick={send}
                data-action="send"
              >
                Send
              </button>
            </div>
          </div>
        </Match>
      </Switch>
    </footer>
  );
}

/** grow fits a textarea to its text, up to a third of the screen. */
function grow(el: HTMLTextAreaElement) {
  el.style.height = "auto";
  el.style.height = Math.min(el.scrollHeight, Math.round(window.innerHeight / 3)) + "px";
}
