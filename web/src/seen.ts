// Telling the server that this page shows a run's chat, so a finished turn
// the operator has read drops from "your turn" to "seen" on every device
// (and the title and badge stop counting it). Only a visible page showing
// a finished turn reports: when the chat opens on one, when the turn ends
// or grows while it shows, and when the page becomes visible again.

import { createEffect, on, onCleanup } from "solid-js";
import { api, type State } from "./api";

/** trackSeen reports run runId as seen while its chat shows; call it inside the chat's component. */
export function trackSeen(runId: string, state: () => State | null, lastSeq: () => number): void {
  let sent = -1;
  const report = () => {
    if (document.visibilityState !== "visible" || state() !== "needs_input" || lastSeq() === sent) return;
    sent = lastSeq();
    api.seen(runId).catch(() => {
      sent = -1; // try again on the next change
    });
  };
  createEffect(on([state, lastSeq], report));
  const onVisible = () => {
    sent = -1;
    report();
  };
  document.addEventListener("visibilitychange", onVisible);
  onCleanup(() => document.removeEventListener("visibilitychange", onVisible));
}
