// A permission prompt as a card: what the agent wants to do, readable on
// a phone (a command, or a file change as a diff, in monospace that
// scrolls sideways only inside its block, its file named once, relative
// to the run's folder), and the CLI's options as large buttons, worded
// plainly with the CLI's own label beneath (without its key hints). A
// denial that takes text offers a field for telling the agent what to do
// instead.

import { createSignal, For, Show } from "solid-js";
import type { Answer, Dialog } from "../api";
import { answerable, denyIndex, diffBody, diffLineClass, permissionAnswer, plainOption, relPath, withoutKeyHint } from "../lib/permission";
import type { CardProps } from "./card";
import { runFolder } from "./runfolder";

/** headFor says in plain words what is asked. */
function headFor(d: Dialog): string {
  const p = d.permission!;
  if (p.command) return "Run this command?";
  if (p.diff || p.path) return "Change this file?";
  return `Use ${p.tool}?`;
}

export function PermissionCard(props: CardProps & { send: (build: () => Answer) => void; sending: () => boolean }) {
  const p = () => props.d.permission!;
  const [feedback, setFeedback] = createSignal("");
  const deny = () => denyIndex(props.d);
  const denyTakesText = () => deny() >= 0 && !!p().options[deny()]?.feedback;
  const folder = runFolder;
  return (
    <>
      <div class="card-head">
        {headFor(props.d)}
        <Show when={p().title}>
          <span class="muted small"> · {p().title}</span>
        </Show>
      </div>
      <Show when={p().description}>
        <p class="q-text">{p().description}</p>
      </Show>
      <Show when={p().command}>
        <pre class="code wrap" data-permission="command">
          {p().command}
        </pre>
      </Show>
      <Show when={p().path}>
        <p class="mono small path" data-permission="path" title={p().path}>
          {relPath(p().path!, folder())}
        </p>
      </Show>
      <Show when={p().diff}>
        <pre class="code diff" data-permission="diff">
          <For each={(p().path ? diffBody(p().diff!) : p().diff!).split("\n")}>{(l) => <span class={diffLineClass(l)}>{l + "\n"}</span>}</For>
        </pre>
      </Show>
      <Show when={p().summary}>
        <pre class="code wrap" data-permission="summary">
          {p().summary}
        </pre>
      </Show>
      <Show when={p().question}>
        <p class="muted small">{p().question}</p>
      </Show>
      <div class="options">
        <For each={p().options}>
          {(o, i) => (
            <Show when={!(o.role === "deny" && i() === deny() && denyTakesText())}>
              <button
                class={`opt${o.role === "deny" ? " deny" : " approve"}`}
                disabled={props.sending() || !answerable(o)}
                onClick={() => props.send(() => permissionAnswer(props.d, i()))}
                data-option={i()}
                data-role={o.role}
              >
                <span class="opt-label">
                  <span class="opt-key" aria-hidden="true">
                    {i() + 1}
                  </span>
                  {plainOption(o)}
                </span>
                <Show when={withoutKeyHint(o.label) !== plainOption(o)}>
                  <span class="opt-desc">{answerable(o) ? withoutKeyHint(o.label) : "lab cannot tell what this does: answer it at the terminal"}</span>
                </Show>
              </button>
            </Show>
          )}
        </For>
      </div>
      <Show when={denyTakesText()}>
        <div class="reject">
          <label class="reject-label" for={`deny-${props.d.tool_id}`}>
            Deny
            <span class="opt-desc">optionally tell the agent what to do differently</span>
          </label>
          <input
            id={`deny-${props.d.tool_id}`}
            type="text"
            placeholder="What should it do instead?"
            value={feedback()}
            disabled={props.sending()}
            onInput={(e) => setFeedback(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.isComposing) {
                e.preventDefault();
                props.send(() => permissionAnswer(props.d, deny(), feedback()));
              }
            }}
          />
          <button class="btn danger" disabled={props.sending()} onClick={() => props.send(() => permissionAnswer(props.d, deny(), feedback()))} data-option={deny()} data-role="deny">
            {feedback().trim() ? "Deny with feedback" : "Deny"}
          </button>
        </div>
      </Show>
    </>
  );
}
