// Which held messages are in the DOM.
//
// A long session is paged in from the server window by window as the
// reader scrolls up, and all of it stays in memory, but only a bounded
// slice is rendered: at most `max` rows. Paging further up drops rows at
// the bottom; scrolling back down re-renders them from memory and drops
// rows at the top. So a 10,000-message session costs the same per scroll
// step as a short one. The slice is "live" when it reaches the newest held
// message; only then can the pane follow new content or show the card.

import type { Message } from "../api";

export interface Range {
  /** Seq of the oldest rendered message (0: from the oldest held). */
  from: number;
  /** The slice runs to the newest held message and grows with it. */
  live: boolean;
  /** Seq of the newest rendered message when not live. */
  to: number;
}

export const liveRange: Range = { from: 0, live: true, to: 0 };

/** indexOfSeq returns the index of the first message with seq >= s. */
export function indexOfSeq(ms: readonly Message[], s: number): number {
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms[mid]!.seq < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** bounds returns the [start, end) indexes of the rendered slice. */
export function bounds(ms: readonly Message[], r: Range): [number, number] {
  const start = indexOfSeq(ms, r.from);
  const end = r.live ? ms.length : Math.max(start, indexOfSeq(ms, r.to + 1));
  return [start, end];
}

/** slice returns the rendered messages. */
export function slice(ms: readonly Message[], r: Range): Message[] {
  const [s, e] = bounds(ms, r);
  return s === 0 && e === ms.length ? (ms as Message[]) : ms.slice(s, e);
}

function make(ms: readonly Message[], start: number, end: number): Range {
  if (ms.length === 0) return liveRange;
  start = Math.max(0, Math.min(start, ms.length - 1));
  end = Math.max(start + 1, Math.min(end, ms.length));
  const live = end >= ms.length;
  return { from: ms[start]!.seq, live, to: live ? 0 : ms[end - 1]!.seq };
}

/** hiddenAbove says whether held messages above the slice are not rendered. */
export function hiddenAbove(ms: readonly Message[], r: Range): boolean {
  return bounds(ms, r)[0] > 0;
}

/**
 * extendUp renders up to step more held messages above the slice, trimming
 * the bottom to keep at most max rows.
 */
export function extendUp(ms: readonly Message[], r: Range, step: number, max: number): Range {
  const [s, e] = bounds(ms, r);
  const start = Math.max(0, s - step);
  return make(ms, start, Math.min(e, start + max));
}

/**
 * extendDown renders up to step more held messages below the slice,
 * trimming the top to keep at most max rows; reaching the newest makes the
 * slice live again.
 */
export function extendDown(ms: readonly Message[], r: Range, step: number, max: number): Range {
  const [s, e] = bounds(ms, r);
  const end = Math.min(ms.length, e + step);
  return make(ms, Math.max(s, end - max), end);
}

/** trimLive keeps a live slice at most max rows by dropping the oldest. */
export function trimLive(ms: readonly Message[], r: Range, max: number): Range {
  if (!r.live) return r;
  const [s, e] = bounds(ms, r);
  if (e - s <= max) return r;
  return make(ms, e - max, e);
}

/** latest is a live slice of the newest n held messages. */
export function latest(ms: readonly Message[], n: number): Range {
  return make(ms, ms.length - n, ms.length);
}
