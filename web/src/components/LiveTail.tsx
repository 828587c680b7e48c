// The bottom of a live chat, below the stream: replies the transcript does
// not show yet (queued bubbles), then, while the agent works, a row with
// the elapsed time and the tool it runs, or the warning when the turn is
// stuck (an API error the CLI retries) instead of an endless "working".

import { createSignal, For, onCleanup, Show } from "solid-js";
import { elapsed, toolLine } from "../lib/progress";
import type { Conversation } from "./conversation";
import type { ReplyQueue } from "./queue";

export function LiveTail(props: { conv: Conversation; queue: ReplyQueue }) {
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const progress = () => props.conv.progress();
  return (
    <>
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
      <Show when={progress()}>
        {(p) => (
          <Show
            when={p().warning}
            fallback={
              <div class="working-row" data-working role="status">
                <span class="spinner" aria-hidden="true" />
                <span class="working-what">
                  Working… <span class="mono">{elapsed(p().since, now())}</span>
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
                  {w().text} <span class="mono muted">{elapsed(p().since, now())}</span>
                </span>
              </div>
            )}
          </Show>
        )}
      </Show>
    </>
  );
}
