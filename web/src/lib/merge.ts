// Merging windows of a conversation stream into what the chat holds.
//
// Seqs are reparse-stable: the same seq always names the same message, and
// only two things change behind the cursor (a tool gets its result, a dialog
// gets its outcome), each visible as a new content_hash. So the client keeps
// one contiguous run of messages sorted by seq and, on every fetch, swaps in
// only the messages whose hash changed. Unchanged messages keep their object
// identity, which is what lets the renderer keep their DOM untouched.

import type { Message } from "../api";

export interface Window {
  /** Contiguous messages, ascending by seq. */
  messages: Message[];
  /** Whether older messages exist before messages[0]. */
  hasMoreBefore: boolean;
}

export const emptyWindow: Window = { messages: [], hasMoreBefore: false };

/**
 * mergeWindow folds a fetched, contiguous, ascending slice into cur.
 * Messages present in both keep the current object when the content_hash is
 * unchanged. When the slice does not touch or overlap what is held (a gap:
 * many messages arrived while the client was away), the held messages are
 * dropped and the slice becomes the window, because a window with a hole
 * could not be paged correctly. hasMoreBefore comes from whichever side
 * holds the oldest message. When nothing changed, cur itself is returned.
 */
export function mergeWindow(cur: Window, incoming: Message[], incomingHasMoreBefore: boolean): Window {
  const inc = normalize(incoming);
  if (inc.length === 0) return cur;
  const held = cur.messages;
  if (held.length === 0) return { messages: inc, hasMoreBefore: incomingHasMoreBefore };
  const hFirst = held[0]!.seq;
  const hLast = held[held.length - 1]!.seq;
  const iFirst = inc[0]!.seq;
  const iLast = inc[inc.length - 1]!.seq;
  if (iFirst > hLast + 1 || iLast < hFirst - 1) {
    // Disjoint. An older disjoint slice cannot happen when paging with
    // before=first_seq; a newer one means a gap, so start over from it.
    return { messages: inc, hasMoreBefore: iFirst > 1 || incomingHasMoreBefore };
  }
  const bySeq = new Map<number, Message>();
  for (const m of held) bySeq.set(m.seq, m);
  let changed = false;
  for (const m of inc) {
    const old = bySeq.get(m.seq);
    if (old && old.content_hash === m.content_hash && m.content_hash !== "") continue;
    bySeq.set(m.seq, m);
    changed = true;
  }
  if (!changed) {
    const more = iFirst < hFirst ? incomingHasMoreBefore : cur.hasMoreBefore;
    return more === cur.hasMoreBefore ? cur : { messages: held, hasMoreBefore: more };
  }
  const messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const hasMoreBefore = iFirst < hFirst ? incomingHasMoreBefore : cur.hasMoreBefore;
  return { messages, hasMoreBefore };
}

/** normalize sorts a slice by seq and drops duplicate seqs (last wins). */
function normalize(ms: Message[]): Message[] {
  let sorted = true;
  for (let i = 1; i < ms.length; i++) {
    if (ms[i]!.seq <= ms[i - 1]!.seq) {
      sorted = false;
      break;
    }
  }
  if (sorted) return ms;
  const bySeq = new Map<number, Message>();
  for (const m of ms) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** firstSeq and lastSeq of a window, 0 when empty. */
export function firstSeq(w: Window): number {
  return w.messages.length ? w.messages[0]!.seq : 0;
}
export function lastSeq(w: Window): number {
  return w.messages.length ? w.messages[w.messages.length - 1]!.seq : 0;
}
