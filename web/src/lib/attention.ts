// Attention levels: how much each run wants the operator, in the order the
// runs list shows them. The server derives them (conv.AttentionOf); the
// fallback here only covers a server that predates the field.

import type { Attention, Run } from "../api";

export const attentionRank: Record<Attention, number> = { blocked: 0, your_turn: 1, working: 2, seen: 3, idle: 4, ended: 5 };

export const attentionLabel: Record<Attention, string> = {
  blocked: "blocked",
  your_turn: "your turn",
  working: "working",
  seen: "seen",
  idle: "idle",
  ended: "ended",
};

/** attentionOf is the run's attention level. */
export function attentionOf(r: Pick<Run, "state" | "pending" | "attention">): Attention {
  if (r.attention && r.attention in attentionRank) return r.attention;
  if (r.state === "ended") return "ended";
  if (r.pending || r.state === "question") return "blocked";
  if (r.state === "needs_input") return "your_turn";
  if (r.state === "working") return "working";
  return "idle";
}

/** lastActivity is when the run last did something (its newest message, else its start). */
export function lastActivity(r: Pick<Run, "last_activity" | "started_at">): number {
  return Date.parse(r.last_activity ?? "") || Date.parse(r.started_at) || 0;
}

/** byAttention sorts runs by attention, then by last activity, newest first. */
export function byAttention<R extends Pick<Run, "state" | "pending" | "attention" | "last_activity" | "started_at">>(runs: readonly R[]): R[] {
  return [...runs].sort(
    (a, b) => attentionRank[attentionOf(a)] - attentionRank[attentionOf(b)] || lastActivity(b) - lastActivity(a),
  );
}

/**
 * waitingCount is how many runs wait on the operator with something new:
 * blocked ones and finished turns not read since ("seen" ones are left
 * out, so the count falls as the operator catches up).
 */
export function waitingCount(runs: readonly Pick<Run, "state" | "pending" | "attention">[]): number {
  return runs.filter((r) => {
    const a = attentionOf(r);
    return a === "blocked" || a === "your_turn";
  }).length;
}

/** titleFor is the document title: the waiting count first, so a tab shows it. */
export function titleFor(waiting: number, base = "lab"): string {
  return waiting > 0 ? `(${waiting}) ${base}` : base;
}
