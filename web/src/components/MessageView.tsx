// One stream message: text (user plain, assistant markdown), thinking
// (collapsed), a tool chip, an answered dialog summary, or a muted
// lifecycle note. Tool output and thinking are bound as text, never HTML,
// and only built when expanded, so a long chat keeps a cheap DOM.

import { createSignal, Match, Show, Switch } from "solid-js";
import type { Message, ToolCall } from "../api";
import { bytes } from "../lib/format";
import { inputParts } from "../lib/toolparts";
import { Attachments } from "./Attachments";
import { CopyButton } from "./CopyButton";
import { decisionText } from "../lib/permission";
import { DialogSummary } from "./DialogSummary";
import { Markdown } from "./Markdown";

export function MessageView(props: { m: Message }) {
  const m = () => props.m;
  return (
    <Switch fallback={null}>
      <Match when={m().kind === "text" && m().role === "user"}>
        <div class="msg user" data-seq={m().seq}>
          <Show when={m().text}>
            <div class="bubble">{m().text}</div>
          </Show>
          <Show when={m().attachments?.length}>
            <Attachments seq={m().seq} items={m().attachments!} />
          </Show>
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
        <Show when={t().decision}>
          {(d) => (
            <span class={`decision${d().allowed ? " allowed" : " denied"}`} data-decision={d().allowed ? d().scope ?? "allowed" : "denied"}>
              {decisionText(d())}
            </span>
          )}
        </Show>
      </summary>
      <Show when={open()}>
        <ToolBody t={t()} />
      </Show>
    </details>
  );
}

/**
 * ToolBody is an expanded chip: the input once (in full when the server
 * sent it whole as detail: a long command, a written file's content),
 * then the output, each labelled and with a Copy button. The summary
 * line's own copy of the input hides while open (see base.css).
 */
function ToolBody(props: { t: ToolCall }) {
  const t = () => props.t;
  const part = () => inputParts(t());
  return (
    <div class="tool-out">
      <Show when={part().head}>
        <div class="tool-head mono" data-part="head">
          {part().head}
        </div>
      </Show>
      <Show when={part().body}>
        <Block label={part().bodyLabel} text={part().body} part="input" note={t().detail_truncated ? "cut: the rest is not shown" : ""} />
      </Show>
      <Show when={t().output} fallback={<div class="muted small">{t().status === "running" ? "running…" : "no output"}</div>}>
        <Block label="Output" text={t().output ?? ""} part="output" note={t().output_truncated ? `cut; ${bytes(t().output_bytes)} in full` : ""} />
      </Show>
    </div>
  );
}

function Block(props: { label: string; text: string; part: string; note?: string }) {
  return (
    <div class="tool-block" data-part={props.part}>
      <div class="tool-block-head">
        <span class="tool-label">{props.label}</span>
        <CopyButton text={() => props.text} label={`Copy ${props.label.toLowerCase()}`} />
      </div>
      <pre class="pre">{props.text}</pre>
      <Show when={props.note}>
        <div class="muted small">{props.note}</div>
      </Show>
    </div>
  );
}
