// The words a working agent's CLI is drawing (live text) and lab's copies
// of words a CLI drew but never recorded (partials): both are served
// beside the stream, never in it, and placed here.

import type { LiveText, Message, Partial } from "../api";

/** shownLive is the live text to show with the held messages: none once the agent's message after it has landed (it replaces the live text in place). */
export function shownLive(live: LiveText | null, msgs: readonly Message[]): LiveText | null {
  if (!live || !live.text) return null;
  for (let i = msgs.length - 1; i >= 0 && msgs[i]!.seq > live.after_seq; i--) {
    const m = msgs[i]!;
    if (m.kind === "text" && m.role === "assistant") return null;
  }
  return live;
}

/** mergePartials adds a page's partials to those held, one per after_seq, in order. */
export function mergePartials(held: readonly Partial[], page: readonly Partial[]): readonly Partial[] {
  if (page.length === 0) return held;
  const by = new Map<number, Partial>();
  for (const p of held) by.set(p.after_seq, p);
  for (const p of page) by.set(p.after_seq, p);
  return [...by.values()].sort((a, b) => a.after_seq - b.after_seq);
}
