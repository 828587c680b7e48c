// Is the event stream alive? A connection can look open and carry
// nothing: a proxy or a network that lost it without saying so, a phone
// that froze the page. The server sends a heartbeat at once and then every
// `every_ms`, so the stream is alive only while something arrives; the
// app decides from the time it last heard anything.

/** The server's default heartbeat, until its first one says otherwise. */
export const defaultEveryMs = 10000;
/** A stream silent for this many heartbeats is dead: reconnect. */
export const deadAfter = 2.5;
/** Back in view, online again: silent for this many is reason enough to doubt it. */
export const doubtAfter = 1.2;
/** Reconnect waits, doubling from the first to the last. */
export const firstRetryMs = 1000;
export const lastRetryMs = 5000;

export interface Heard {
  /** When the stream last delivered anything (ms). */
  at: number;
  /** The heartbeat interval the server announced (ms). */
  everyMs: number;
}

/** deadAt is when a stream that has heard nothing since `h.at` is taken for dead. */
export function deadAt(h: Heard): number {
  return h.at + h.everyMs * deadAfter;
}

/** doubtful says whether a stream that looks open may be dead already (checked when the page comes back). */
export function doubtful(h: Heard, now: number): boolean {
  return now - h.at > h.everyMs * doubtAfter;
}

/** nextRetry is the wait after one that failed. */
export function nextRetry(prev: number): number {
  return Math.min(Math.max(prev * 2, firstRetryMs), lastRetryMs);
}

/** announced reads a heartbeat's interval, keeping `current` for anything else. */
export function announced(data: unknown, current: number): number {
  const ms = (data as { every_ms?: unknown } | null)?.every_ms;
  return typeof ms === "number" && ms >= 50 && ms <= 120000 ? ms : current;
}
