// The bottom of a live chat. Its shape follows the conversation:
// - a dialog is pending: a one-line note pointing at the card, plus
//   Interrupt, confirmed first since it dismisses the question (free text
//   cannot answer a focused picker);
// - state question but no structured dialog: a locked note, plus Interrupt;
// - ended: a note;
// - otherwise a multi-line composer (Enter sends with a fine pointer, the
//   button sends on phones) and Interrupt while the agent works. With
//   slash set, a "/" opens the run's command menu above it, and Send runs
//   a listed command instead of sending it as text (steer/SlashMenu.tsx).

import { createSignal, Match, Show, Switch } from "solid-js";
import { isOffline, type Command, type State, type Upload } from "../api";
import { fill, route } from "../lib/slash";
import { slashMenu } from "../steer/lazy";
import { AttachButton, AttachChips, createAttachments } from "./ComposerAttach";
import { ConfirmInterrupt } from "./ConfirmInterrupt";
import { Alert } from "./Alert";

export interface ComposerProps {
  state: State | null;
  /** Out of touch with lab: the state is only the last known. */
  stale?: boolean;
  pending: boolean;
  /** uploads are the ids of the files attached to the reply. */
  onReply: (text: string, uploads?: string[]) => Promise<void>;
  /** upload sends a file for the next reply; attach says the CLI takes files (default true when upload is set). */
  upload?: (f: File) => Promise<Upload>;
  attach?: boolean;
  onInterrupt: () => Promise<void>;
  onShowCard: () => void;
  slash?: Slash;
}

/** Slash is what the composer needs for slash commands. */
export interface Slash {
  /** The run's commands, null until loaded. */
  commands: () => Command[] | null;
  /** prepare loads the menu and the commands, before the first "/". */
  prepare: () => void;
  run: (name: string, args: string) => Promise<void>;
}

const finePointer = () => typeof matchMedia === "function" && matchMedia("(pointer: fine)").matches;

export function Composer(props: ComposerProps) {
  const [text, setText] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal("");
  const att = props.upload ? createAttachments(props.upload) : undefined;
  const ready = () => (text().trim() !== "" || (att?.ids().length ?? 0) > 0) && !att?.uploading();

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

  async function send(asText = false) {
    const t = text();
    if (!ready() || busy()) return;
    const ids = att?.ids();
    // A listed slash command goes to the command path (never with files);
    // anything else, files included, is a reply.
    const r = props.slash && !asText && !ids?.length ? route(props.slash.commands(), t) : ({ kind: "text" } as const);
    const deliver = r.kind === "command" ? () => props.slash!.run(r.command.name, r.args) : () => props.onReply(t, ids);
    if (await act(deliver)) {
      // Back to one line, and the keyboard stays up for the next reply.
      setText("");
      att?.clear();
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
      <Alert error={error()} />
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
          <Show when={props.slash && text().startsWith("/") && slashMenu()}>
            {(Menu) => {
              const M = Menu();
              return (
                <M
                  commands={props.slash!.commands()}
                  text={text()}
                  busy={busy()}
                  onPick={(c) => {
                    setText(fill(c));
                    box?.focus();
                  }}
                  onSendAsText={() => void send(true)}
                />
              );
            }}
          </Show>
          <Show when={att}>{(a) => <AttachChips att={a()} />}</Show>
          <div class="compose" data-composer="open" onDragOver={(e) => att && e.preventDefault()} onDrop={(e) => att?.drop(e)}>
            <Show when={props.attach !== false ? att : undefined}>{(a) => <AttachButton att={a()} disabled={busy()} />}</Show>
            <textarea
              name="reply"
              rows={1}
              ref={box}
              placeholder={props.stale ? "Reply (sent when lab is back)…" : props.state === "working" ? "Next reply…" : "Reply…"}
              value={text()}
              readOnly={busy()}
              onFocus={() => props.slash?.prepare()}
              onInput={(e) => {
                setText(e.currentTarget.value);
                if (e.currentTarget.value.startsWith("/")) props.slash?.prepare();
                grow(e.currentTarget);
              }}
              onPaste={(e) => att?.paste(e)}
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
                disabled={busy() || !ready()}
                // Tapping Send must not move the focus off the textarea,
                // or the phone's keyboard would drop after every reply.
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => send()}
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
