// The context and usage meter: a compact line in the chat header (how full
// the context is, the estimated cost), the details on tap, and a warning
// once the context is 80% full, with one tap to compact it when the
// server can run the command.

import { createResource, createSignal, Show } from "solid-js";
import type { Usage } from "../api";
import { compactFor } from "../lib/compact";
import { cost, full, short, tokens, warns } from "../lib/meter";
import "../styles/uploads.css";

/** MeterBadge is the header's meter (followed by " · "); tapping it shows MeterPanel. */
export function MeterBadge(props: { usage: Usage | null; open: boolean; onToggle: () => void }) {
  return (
    <Show when={props.usage}>
      {(u) => (
        // An inline span, not a button: the header's clamped lines lay
        // out inline content only.
        <span
          role="button"
          tabIndex={0}
          class={`meter-badge${warns(u()) ? " warn" : ""}`}
          aria-expanded={props.open}
          onClick={props.onToggle}
          onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), props.onToggle())}
          data-meter={Math.round((full(u()) ?? 0) * 100)}
        >
          {short(u())}
        </span>
      )}
    </Show>
  );
}

/** MeterPanel is the meter's details (when open) and its warning (always, once full). */
export function MeterPanel(props: { usage: Usage | null; open: boolean; runId?: string; live?: boolean }) {
  const [compact] = createResource(
    () => (props.runId && props.live && warns(props.usage) ? props.runId : false),
    (id) => compactFor(id),
  );
  const [sent, setSent] = createSignal("");
  const run = async (fn: () => Promise<void>) => {
    setSent("Compacting…");
    try {
      await fn();
      setSent("Compaction asked for.");
    } catch (e) {
      setSent(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Show when={props.usage}>
      {(u) => (
        <>
          <Show when={warns(u())}>
            <div class="meter-warn" role="status" data-meter-warning>
              <span class="grow">
                Context {Math.round(full(u())! * 100)}% full: the agent will soon compact it or stop.
              </span>
              <Show when={compact()}>
                {(fn) => (
                  <button class="btn" onClick={() => void run(fn())} data-action="compact">
                    /compact
                  </button>
                )}
              </Show>
              <Show when={sent()}>
                <span class="muted small">{sent()}</span>
              </Show>
            </div>
          </Show>
          <Show when={props.open}>
            <dl class="meter-details" data-meter-details>
              <dt>Context</dt>
              <dd>
                {tokens(u().context_tokens)}
                {u().context_window ? ` of ${tokens(u().context_window!)} (${Math.round(full(u())! * 100)}%)` : ""}
              </dd>
              <dt>Session</dt>
              <dd>
                {tokens(u().input_tokens)} in · {tokens(u().output_tokens)} out
                {u().cache_read_tokens ? ` · ${tokens(u().cache_read_tokens!)} from cache` : ""}
                {u().cache_write_tokens ? ` · ${tokens(u().cache_write_tokens!)} cached` : ""} · {u().requests} requests
              </dd>
              <Show when={u().model}>
                <dt>Model</dt>
                <dd>{u().model}</dd>
              </Show>
              <dt>Cost</dt>
              <dd>
                {u().cost_usd ? `${cost(u().cost_usd)}, an estimate from prices of ${u().price_date}` : "no estimate: the model is not in lab's price table"}
              </dd>
            </dl>
          </Show>
        </>
      )}
    </Show>
  );
}
