// Which runs the runs list's housekeeping acts on, and how its results
// read. The server re-checks every run when it acts; these only decide
// what to offer and to confirm.

import type { BulkResult, Run } from "../api";

/**
 * idleRuns are live runs doing nothing: not working, no dialog waiting.
 * Attached runs are left out: lab never ends a process it did not start.
 */
export function idleRuns(runs: readonly Run[]): Run[] {
  return runs.filter((r) => !r.pending && !r.attached && (r.state === "idle" || r.state === "needs_input"));
}

/** endedRuns are the runs that can be archived. */
export function endedRuns(runs: readonly Run[]): Run[] {
  return runs.filter((r) => r.state === "ended" && !r.archived_at);
}

/** bulkSummary says in one line what a bulk action did. */
export function bulkSummary(verb: string, r: BulkResult): string {
  const done = r.done?.length ?? 0;
  const skipped = r.skipped ?? [];
  let s = `${verb} ${done} run${done === 1 ? "" : "s"}.`;
  if (skipped.length > 0) {
    s += ` Left ${skipped.length} alone: ${skipped.map((x) => x.reason).join("; ")}.`;
  }
  return s;
}
