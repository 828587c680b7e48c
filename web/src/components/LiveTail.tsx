// The bottom of a live chat, below the stream: the agent's words its CLI
// is drawing right now (replaced in place by the transcript's message when
// it lands), replies the transcript does not show yet (queued bubbles),
// what waits in the outbox for the connection or could not be sent, then,
// while the agent works, a row with the elapsed time and the tool it runs,
// or the warning when the turn is stuck (an API error the CLI retries)
// instead of an endless "working". Out of touch with lab (stale), the
// live parts say they are the last known and stop counting.

import { createEffect, createSignal, For, onCleanup, Show } from "solid-js";
import { shownLive } from "../lib/live";
import { elapsed, toolLine } from "../lib/progress";
import { dismiss, outbox, retry } from "../outbox";
import type { Conversation } from "./conversation";
import type { ReplyQueue } from "./queue";
import "../styles/live.css";

export function LiveTail(props: { conv: Conversation; queue: ReplyQueue; runId: string; stale: boolean }) {
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const progress = () => props.conv.progress();
  const live = () => shownLive(props.conv.live(), props.conv.win().messages);
  const mine = () => outbox().filter((i) => i.run === props.runId);
  // Out of touch, the clock stops where it was: the time is the last known.
  const [frozenAt, setFrozenAt] = createSignal(0);
  createEffect(() => setFrozenAt(props.stale ? (f) => f || Date.now() : 0));
  const clock = () => frozenAt() || now();
  return (
    <>
      <Show when={live()}>
        {(lt) => (
          <div class="msg assistant live" classList={{ stale: props.stale }} data-live={lt().after_seq}>
            <div class="live-text">{lt().text}</div>
            <span class="live-tag">{props.stale ? "last seen on the CLI's screen" : "writing…"}</span>
          </div>
        )}
      </Show>
      <For each={props.queue.items()}>
        {(q) => (
          <div class="msg user queued" data-queued={q.id}>
            <div class="bubble">
              {q.text}
              <span class="queued-tag">{q.queued ? "queued" : "sending"}</span>
            </div>
          </div>
        )}
      </For>
      <For each={mine().filter((i) => i.kind === "reply")}>
        {(i) => (
          <div class="msg user queued" classList={{ failed: i.status === "failed" }} data-outbox={i.status}>
            <div class="bubble">
              {i.text || ""}
              <Show when={i.uploads?.length}>{(n) => <span class="muted"> {n() === 1 ? "1 attachment" : `${n()} attachments`}</span>}</Show>
              <span class="queued-tag">{i.status === "failed" ? "not sent" : i.status === "sending" ? "sending" : "waits for the connection"}</span>
            </div>
            <Show when={i.status === "failed"}>
              <div class="outbox-failed" role="alert">
                <span class="grow">{i.error}</span>
                <button class="btn" onClick={() => retry(i.key)} data-action="outbox-retry">
                  Send again
                </button>
                <button class="btn" onClick={() => dismiss(i.key)} data-action="outbox-dismiss">
                  Discard
                </button>
              </div>
            </Show>
          </div>
        )}
      </For>
      <For each={mine().filter((i) => i.kind === "answer" && i.status === "failed")}>
        {(i) => (
          <div class="notice error outbox-failed" role="alert" data-outbox-answer>
            <span class="grow">{i.error}</span>
            <button class="btn" onClick={() => dismiss(i.key)} data-action="outbox-dismiss">
              OK
            </button>
          </div>
        )}
      </For>
      <Show when={progress()}>
        {(p) => (
          <Show
            when={p().warning}
            fallback={
              <div class="working-row" classList={{ stale: props.stale }} data-working={props.stale ? "stale" : ""} role="status">
                <span class={props.stale ? "dot" : "spinner"} aria-hidden="true" />
                <span class="working-what">
                  {props.stale ? "Last known: working… " : "Working… "}
                  <span class="mono">{elapsed(p().since, clock())}</span>
                  <Show when={toolLine(p())}>
                    <span class="working-tool"> · {toolLine(p())}</span>
                  </Show>
                </span>
              </div>
            }
          >
            {(w) => (
              <div class={`working-row stuck lv-${w().level}`} data-working="stuck" role="alert">
                <span aria-hidden="true">⚠</span>
                <span class="working-what">
                  {w().text} <span class="mono muted">{elapsed(p().since, clock())}</span>
                </span>
              </div>
            )}
          </Show>
        )}
      </Show>
    </>
  );
}
