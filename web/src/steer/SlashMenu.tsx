// The slash menu over the composer: the run's commands as its CLI lists
// them, narrowed as the name is typed, each with what it does and whose it
// is; the ones lab will not send say why. Picking one fills the composer
// ready for its text. While the text is a command line, the menu says what
// Send will do and offers to send the text as chat instead. It lives in
// its own chunk, loaded when the composer first gets the focus.

import { For, Show } from "solid-js";
import type { Command } from "../api";
import { menuMatches, parseSlash, route, typing } from "../lib/slash";
import "./steer.css";

export interface SlashMenuProps {
  /** The run's commands; null while they load (or could not). */
  commands: Command[] | null;
  text: string;
  onPick: (c: Command) => void;
  onSendAsText: () => void;
  busy: boolean;
}

/** maxRows bounds the rows shown at once (the chat stays in sight); typing narrows the rest. */
const maxRows = 6;

const sourceName: Record<Command["source"], string> = { builtin: "", user: "yours", project: "project" };

export default function SlashMenu(props: SlashMenuProps) {
  const name = () => typing(props.text);
  const matches = () => (props.commands && name() !== null ? menuMatches(props.commands, name()!) : []);
  const routed = () => route(props.commands, props.text);
  const line = () => parseSlash(props.text);
  const refusal = () => {
    const r = routed();
    return r.kind === "command" ? r.command.refused : undefined;
  };
  return (
    <div class="slash-menu" role="listbox" aria-label="Slash commands" data-slash-menu>
      <Show when={props.commands === null}>
        <div class="slash-note muted">Loading the run's commands…</div>
      </Show>
      <Show when={name() !== null}>
        <For each={matches().slice(0, maxRows)}>
          {(c) => (
            <button
              type="button"
              class="slash-row"
              classList={{ refused: !!c.refused }}
              role="option"
              aria-selected={false}
              data-command={c.name}
              // The composer keeps the focus (and the phone its keyboard).
              onPointerDown={(e) => e.preventDefault()}
              onClick={() => props.onPick(c)}
            >
              <span class="slash-name mono">
                /{c.name}
                <Show when={c.args_hint}>
                  <span class="muted"> {c.args_hint}</span>
                </Show>
              </span>
              <Show when={c.refused || sourceName[c.source]}>
                <span class="tag" title={c.refused}>
                  {c.refused ? "terminal only" : sourceName[c.source]}
                </span>
              </Show>
              <span class="slash-desc small">{c.description ?? ""}</span>
            </button>
          )}
        </For>
        <Show when={matches().length > maxRows}>
          <div class="slash-note muted small">{matches().length - maxRows} more: keep typing</div>
        </Show>
      </Show>
      <Show when={props.commands && routed().kind === "text" && (line()?.name ?? name())}>
        {(n) => (
          <div class="slash-note muted small" data-slash-none>
            No command /{n()}: Send sends it as text.
          </div>
        )}
      </Show>
      <Show when={routed().kind === "command" && line()}>
        <div class="slash-note small" data-slash-route>
          <span class="grow">
            <Show
              when={refusal()}
              fallback={
                <>
                  Send runs <span class="mono">/{line()!.name}</span>
                  {line()!.args ? " with your text" : ""}
                </>
              }
            >
              {(why) => (
                <>
                  lab does not send <span class="mono">/{line()!.name}</span>: {why()}
                </>
              )}
            </Show>
          </span>
          <button type="button" class="link" disabled={props.busy} onPointerDown={(e) => e.preventDefault()} onClick={props.onSendAsText} data-action="send-as-text">
            Send as text
          </button>
        </div>
      </Show>
    </div>
  );
}
