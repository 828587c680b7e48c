// One stream message: text (user plain, assistant markdown), thinking
// (collapsed), a tool chip, an answered dialog summary, or a muted
// lifecycle note. Tool output and thinking are bound as text, never HTML,
// and only built when expanded, so a long chat keeps a cheap DOM.

import { createSignal, Match, Show, Switch } from "solid-js";
import type { Message, ToolCall } from "../api";
import { bytes } from "../lib/format";
import { DialogSummary } from "./DialogSummary";
import { Markdown } from "./Markdown";

export function MessageView(props: { m: Message }) {
  const m = () => props.m;
  return (
    <Switch fallback={null}>
      <Match when={m().kind === "text" && m().role === "user"}>
        <div class="msg user" data-seq={m().seq}>
          <div class="bubble">{m().text}</div>
        </div>
      </Match>
      <Match when={m().kind === "text"}>
        <div class="msg assistant" data-seq={m().seq}>
          <Markdown text={m().text ?? ""} />
        </div>
      </Match>
      <Match when={m().kind === "thinking"}>
        <div class="msg thinking" data-seq={m().seq}>
          <Lazy summary="Thinking" class="fold">
            {() => <div class="pre muted">{m().text}</div>}
          </Lazy>
        </div>
      </Match>
      <Match when={m().kind === "tool" && m().tool}>
        <div class="msg tool" data-seq={m().seq}>
          <ToolChip t={m().tool!} />
        </div>
      </Match>
      <Match when={m().kind === "dialog" && m().dialog}>
        <div class="msg dialog" data-seq={m().seq} data-tool-id={m().dialog!.tool_id}>
          <DialogSummary d={m().dialog!} />
        </div>
      </Match>
      <Match when={m().kind === "lifecycle" && m().lifecycle}>
        <div class={`msg note lv-${m().lifecycle!.level}`} data-seq={m().seq}>
          {m().lifecycle!.text}
        </div>
      </Match>
    </Switch>
  );
}

/** Lazy is a <details> whose body is only created once opened. */
function Lazy(props: { summary: string | (() => unknown); class?: string; children: () => unknown; error?: boolean }) {
  const [open, setOpen] = createSignal(false);
  return (
    <details class={props.class} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{typeof props.summary === "function" ? (props.summary() as string) : props.summary}</summary>
      <Show when={open()}>{props.children() as never}</Show>
    </details>
  );
}

function ToolChip(props: { t: ToolCall }) {
  const t = () => props.t;
  const [open, setOpen] = createSignal(false);
  return (
    <details class={`chip-tool s-${t().status}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span class="tool-icon" aria-hidden="true">
          {t().status === "running" ? "◌" : t().status === "error" ? "✕" : "✓"}
        </span>
        <span class="tool-name">{t().name}</span>
        <span class="tool-input">{t().input}</span>
      </summary>
      <Show when={open()}>
        <div class="tool-out">
          <Show when={t().input}>
            <div class="pre tool-in">{t().input}</div>
          </Show>
          <Show when={t().output} fallback={<div class="muted">{t().status === "running" ? "running…" : "no output"}</div>}>
            <pre class="pre">{t().output}</pre>
          </Show>
          <Show when={t().output_truncated}>
            <div class="muted small">output cut; {bytes(t().output_bytes)} in full</div>
          </Show>
        </div>
      </Show>
    </details>
  );
}
