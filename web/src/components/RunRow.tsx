// One row of the runs list: title, the agent CLI, folder, last activity
// and a one-line preview of the newest message, with the run's attention level. Blocked
// runs (a dialog or permission prompt waits) stand out; a finished turn is
// marked calmly as "your turn".

import { Show } from "solid-js";
import type { Run } from "../api";
import { attentionLabel, attentionOf } from "../lib/attention";
import { ago, cliVersion } from "../lib/format";
import { runHeading } from "../lib/heading";
import { CliBadge } from "./CliVersion";
import { providerLabel } from "../providers";
import { linkHandler } from "../router";
import "../styles/machines.css";

export function AttentionBadge(props: { run: Pick<Run, "state" | "pending" | "attention"> }) {
  const a = () => attentionOf(props.run);
  return (
    <span class={`badge att att-${a()}`} data-attention={a()}>
      {attentionLabel[a()]}
    </span>
  );
}

/** RunRow shows a run; machine adds its machine's name (a hub's list), stale greys it (its machine cannot be reached). */
export function RunRow(props: { run: Run; selected?: boolean; machine?: boolean; stale?: boolean }) {
  const r = () => props.run;
  const a = () => attentionOf(r());
  const h = () => runHeading(r());
  return (
    <a
      class={`row att-row-${a()}`}
      classList={{ selected: !!props.selected, stale: !!props.stale }}
      href={`/runs/${encodeURIComponent(r().id)}`}
      onClick={linkHandler}
      aria-current={props.selected ? "page" : undefined}
      data-run={r().id}
      data-attention={a()}
      data-stale={props.stale ? "" : undefined}
    >
      <div class="row-main">
        <div class="row-title">{h().title}</div>
        <div class="row-sub muted">
          <Show when={props.machine && r().machine}>
            <span class="tag machine" data-machine={r().machine}>
              {r().machine}
            </span>{" "}
          </Show>
          <Show when={r().provider}>
            <span class="provider" data-provider={r().provider}>
              {providerLabel(r().provider)}
            </span>{" "}
            ·{" "}
          </Show>
          <Show when={r().attached}>
            <span class="tag" data-attached>
              attached
            </span>{" "}
          </Show>
          {h().sub} · <time datetime={r().last_activity ?? r().started_at}>{ago(r().last_activity ?? r().started_at)}</time>
          <Show when={cliVersion(r())}>{(v) => ` · ${v().label}`}</Show>
        </div>
        <Show when={r().preview}>
          <div class="row-preview" data-preview>
            {r().preview}
          </div>
        </Show>
      </div>
      <div class="row-side">
        <CliBadge run={r()} />
        <Show when={a() === "blocked"}>
          <span class="needs-dot" aria-label="blocked">
            ●
          </span>
        </Show>
        <AttentionBadge run={r()} />
      </div>
    </a>
  );
}
