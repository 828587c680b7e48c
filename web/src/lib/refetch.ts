// Deciding what to fetch after live events.
//
// SSE events are invalidations: run.messages.changed says "something at or
// after backpatch_seq changed" (or, without it, "new messages were
// appended"). The client debounces a burst of them into one fetch whose
// `after` cursor is its last held seq, moved down so the earliest
// back-patched message is refetched too. A reconnect or a transcript change
// forces a full refetch of the latest window instead, because events may
// have been missed.

export interface Plan {
  /** Refetch the latest window and merge (or replace, on transcript change). */
  full: boolean;
  /** Lowest back-patched seq noted since the last fetch, 0 for none. */
  backpatch: number;
}

export const idle: Plan = { full: false, backpatch: 0 };

/** noteChange folds one run.messages.changed event into the plan. */
export function noteChange(p: Plan, backpatchSeq?: number): Plan {
  if (!backpatchSeq || backpatchSeq < 1) return p;
  const backpatch = p.backpatch === 0 ? backpatchSeq : Math.min(p.backpatch, backpatchSeq);
  return { ...p, backpatch };
}

/** noteReconnect marks that events may have been missed. */
export function noteReconnect(p: Plan): Plan {
  return { ...p, full: true };
}

export type Fetch = { kind: "latest" } | { kind: "after"; after: number };

/**
 * nextFetch turns the plan into one request, given the seqs the client
 * holds. With nothing held, or after a reconnect, it is the latest window.
 * A back-patch below the held window is ignored: that message is not shown,
 * and paging back to it will fetch it fresh.
 */
export function nextFetch(p: Plan, firstSeq: number, lastSeq: number): Fetch {
  if (p.full || lastSeq <= 0) return { kind: "latest" };
  let after = lastSeq;
  if (p.backpatch >= firstSeq && p.backpatch > 0) after = Math.min(after, p.backpatch - 1);
  if (after <= 0) return { kind: "latest" };
  return { kind: "after", after };
}
