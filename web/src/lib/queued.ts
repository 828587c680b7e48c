// Replies shown at once as queued bubbles: a reply sent while the agent
// works reaches the transcript only when the CLI takes it, which can be
// minutes later. Each bubble stays until a user message after the newest
// message held when it was sent carries the same text.

import type { Message } from "../api";

export interface Queued {
  id: number;
  text: string;
  /** The newest seq held when it was sent: only later messages can be it. */
  afterSeq: number;
  /** The agent was working when it was sent, so the CLI queues it. */
  queued: boolean;
}

/** sameText compares replies the way the transcript may reshape them (whitespace). */
export function sameText(a: string, b: string): boolean {
  const n = (s: string) => s.replace(/\s+/g, " ").trim();
  return n(a) === n(b);
}

/**
 * settle drops the replies the stream now shows. Each user message settles
 * at most one reply, oldest first, so sending the same text twice keeps
 * the second bubble until its own message arrives. Returns the same array
 * when nothing settled.
 */
export function settle(queue: readonly Queued[], msgs: readonly Message[]): readonly Queued[] {
  if (queue.length === 0) return queue;
  const used = new Set<number>();
  const left = queue.filter((q) => {
    const m = msgs.find((m) => m.seq > q.afterSeq && !used.has(m.seq) && m.kind === "text" && m.role === "user" && sameText(m.text ?? "", q.text));
    if (!m) return true;
    used.add(m.seq);
    return false;
  });
  return left.length === queue.length ? queue : left;
}
