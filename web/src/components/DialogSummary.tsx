// A dialog in the stream that is not the pending card: answered ones as
// compact, inert question → answer summaries (plans in full, then approved
// or rejected with the feedback), a dismissed marker when no answer landed,
// and unanswered ones (history, an ended run) as a read-only view.

import { For, Match, Show, Switch } from "solid-js";
import type { Dialog } from "../api";
import { approvalText, summarize } from "../lib/answer";
import { Markdown } from "./Markdown";

export function DialogSummary(props: { d: Dialog }) {
  const s = () => (props.d.outcome ? summarize(props.d, props.d.outcome) : null);
  return (
    <div class={`summary k-${props.d.kind}`}>
      <Show when={props.d.kind === "plan"}>
        <div class="summary-head">Plan</div>
        <Markdown text={props.d.plan ?? ""} class="plan" />
      </Show>
      <Switch>
        <Match when={!s()}>
          <Show when={props.d.kind === "question"}>
            <For each={props.d.questions ?? []}>
              {(q) => (
                <div class="qa">
                  <span class="q">{q.question}</span>
                </div>
              )}
            </For>
          </Show>
          <div class="marker muted">not answered</div>
        </Match>
        <Match when={s()!.dismissed}>
          <Show when={props.d.kind === "question"}>
            <For each={props.d.questions ?? []}>
              {(q) => (
                <div class="qa">
                  <span class="q">{q.question}</span>
                </div>
              )}
            </For>
          </Show>
          <div class="marker dismissed">dismissed — no answer</div>
        </Match>
        <Match when={props.d.kind === "plan"}>
          <Show
            when={s()!.approved}
            fallback={
              <div class="marker rejected">
                rejected<Show when={s()!.feedback}>: <span class="typed">{s()!.feedback}</span></Show>
              </div>
            }
          >
            <div class="marker approved" data-approval={props.d.outcome?.approval_mode ?? ""}>
              {approvalText(props.d.outcome!)}
            </div>
          </Show>
        </Match>
        <Match when={true}>
          <For each={s()!.lines}>
            {(l) => (
              <div class="qa">
                <span class="q">{l.question}</span>
                <span class="arrow" aria-hidden="true">
                  →
                </span>
                <span class={l.typed ? "a typed" : "a"}>{l.answer}</span>
              </div>
            )}
          </For>
        </Match>
      </Switch>
    </div>
  );
}
