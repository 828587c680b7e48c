// The Terminal sheet of a live run: the pane as the CLI draws it, colours
// and cursor included, live (a stream that exists only while the sheet is
// open), rendered by xterm.js. It is read-only until the operator turns on
// "Type into the terminal"; then what they type, and the key bar's keys,
// go to the pane (each input is logged by lab). The pane keeps the size
// the CLI has: on a phone the screen shows at a readable font and pans
// sideways rather than shrink to fit.

import { Terminal } from "@xterm/xterm";
import xtermCss from "@xterm/xterm/css/xterm.css?inline";
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { call, errorText } from "../api";
import { barKeys, fontFor, inputsOf, type TerminalInput } from "./input";
import { openTerminal } from "./stream";
import css from "./terminal.css?inline";

// The styles come with the chunk, as text (see the changes sheet).
if (typeof document !== "undefined" && !document.getElementById("terminal-css")) {
  const style = document.createElement("style");
  style.id = "terminal-css";
  style.textContent = xtermCss + css;
  document.head.append(style);
}

export interface TerminalSheetProps {
  runId: string;
  /** What the chat calls the run, for the header. */
  title?: string;
  /** Whether lab may type into this run (not for one it can only follow). */
  canType: boolean;
  onClose: () => void;
}

export default function TerminalSheet(props: TerminalSheetProps) {
  let host!: HTMLDivElement;
  let body!: HTMLElement;
  const [size, setSize] = createSignal<{ cols: number; rows: number } | null>(null);
  const [trouble, setTrouble] = createSignal<{ message: string; fatal: boolean } | null>(null);
  const [typing, setTyping] = createSignal(false);
  const [font, setFont] = createSignal(0); // 0: chosen for the pane's width
  const [text, setText] = createSignal("");
  const [sendError, setSendError] = createSignal("");
  const path = `/runs/${encodeURIComponent(props.runId)}/terminal`;
  let term: Terminal | undefined;
  let queue: Promise<void> = Promise.resolve();

  /** send posts inputs in order, one after the other. */
  function send(inputs: TerminalInput[]) {
    for (const input of inputs) {
      queue = queue
        .then(() => call<void>("POST", path + "/input", input))
        .then(
          () => void setSendError(""),
          (e) => void setSendError(errorText(e)),
        );
    }
  }

  const fontSize = () => font() || fontFor(body?.clientWidth ? body.clientWidth - 12 : 378, size()?.cols ?? 80);

  onMount(() => {
    term = new Terminal({
      disableStdin: true,
      scrollback: 0,
      fontSize: fontSize(),
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      cursorBlink: false,
      theme: { background: "#101317", foreground: "#d8dde5" },
    });
    term.open(host);
    term.onData((d) => {
      if (typing()) send(inputsOf(d));
    });
    const close = openTerminal("/api/v1" + path, {
      screen(s) {
        setTrouble(null);
        setSize({ cols: s.cols, rows: s.rows });
        term!.reset();
        term!.options.fontSize = fontSize();
        if (term!.cols !== s.cols || term!.rows !== s.rows) term!.resize(s.cols, s.rows);
        term!.write(s.data);
      },
      output(b) {
        term!.write(b);
      },
      trouble(message, fatal) {
        setTrouble({ message, fatal });
      },
    });
    onCleanup(() => {
      close();
      term?.dispose();
    });
  });

  function zoom(by: number) {
    setFont(Math.max(6, Math.min(24, fontSize() + by)));
    if (term) term.options.fontSize = fontSize();
  }
  function toggleTyping() {
    const on = !typing();
    setTyping(on);
    setSendError("");
    if (term) term.options.disableStdin = !on;
  }
  function submit(e: Event, enter: boolean) {
    e.preventDefault();
    const t = text();
    if (!t && !enter) return;
    send([{ text: t || undefined, keys: enter ? ["Enter"] : undefined }]);
    setText("");
  }

  const sub = () => {
    const s = size();
    const dims = s ? `${s.cols}×${s.rows}` : "connecting…";
    return `${dims} · ${typing() ? "typing into the pane" : "read-only"}`;
  };

  return (
    <div class="sheet" role="dialog" aria-modal="true" aria-label="Terminal" data-sheet="terminal">
      <header class="bar">
        <button class="icon-btn" onClick={() => props.onClose()} aria-label="Close terminal" data-action="terminal-close">
          ×
        </button>
        <div class="bar-title">
          <h1>Terminal{props.title ? ` · ${props.title}` : ""}</h1>
          <div class="bar-sub" data-terminal-mode={typing() ? "typing" : "read-only"}>
            {sub()}
          </div>
        </div>
      </header>
      <main class="term-body" ref={body} data-terminal-body>
        <div class="term-host" ref={host} data-terminal />
      </main>
      <Show when={trouble()}>
        {(t) => (
          <p class={`term-status${t().fatal ? " fatal" : ""}`} role="status" data-terminal-status>
            {t().message}
          </p>
        )}
      </Show>
      <Show when={sendError()}>
        <p class="term-status fatal" role="alert" data-terminal-error>
          {sendError()}
        </p>
      </Show>
      <div class="term-controls">
        <Show when={props.canType}>
          <button class="btn" aria-pressed={typing()} onClick={toggleTyping} data-action="terminal-type">
            {typing() ? "Stop typing" : "Type into the terminal"}
          </button>
        </Show>
        <button class="btn" onClick={() => zoom(-1)} aria-label="Smaller text" data-action="terminal-smaller">
          A−
        </button>
        <button class="btn" onClick={() => zoom(1)} aria-label="Larger text" data-action="terminal-larger">
          A+
        </button>
        <Show when={typing()}>
          <form class="term-type" onSubmit={(e) => submit(e, true)}>
            <input
              value={text()}
              onInput={(e) => setText(e.currentTarget.value)}
              placeholder="Text to type"
              aria-label="Text to type into the terminal"
              autocapitalize="off"
              autocomplete="off"
              spellcheck={false}
              enterkeyhint="send"
              data-terminal-text
            />
            <button class="btn" type="button" onClick={(e) => submit(e, false)} data-action="terminal-type-text">
              Type
            </button>
            <button class="btn primary" type="submit" data-action="terminal-send">
              Type ⏎
            </button>
          </form>
          <div class="term-keys" role="group" aria-label="Keys">
            <For each={barKeys}>
              {(k) => (
                <button class="btn" aria-label={k.name} onClick={() => send([{ keys: [k.key] }])} data-key={k.key}>
                  {k.label}
                </button>
              )}
            </For>
          </div>
        </Show>
      </div>
    </div>
  );
}
