// The queued replies of one chat: added the moment the operator sends,
// settled as the conversation's window shows them (lib/queued).

import { createEffect, createSignal, on } from "solid-js";
import { settle, type Queued } from "../lib/queued";
import type { Conversation } from "./conversation";

export type ReplyQueue = ReturnType<typeof createReplyQueue>;

export function createReplyQueue(conv: Conversation) {
  const [items, setItems] = createSignal<readonly Queued[]>([]);
  let next = 1;
  createEffect(on(conv.win, (w) => setItems((q) => settle(q, w.messages))));

  /** add shows text as a bubble now and returns its id. */
  function add(text: string): number {
    const msgs = conv.win().messages;
    const q: Queued = {
      id: next++,
      text,
      afterSeq: msgs.length ? msgs[msgs.length - 1]!.seq : 0,
      queued: conv.state() === "working",
    };
    setItems((cur) => [...cur, q]);
    return q.id;
  }

  /** remove drops a bubble whose reply failed (the composer keeps the text). */
  function remove(id: number): void {
    setItems((cur) => cur.filter((q) => q.id !== id));
  }

  return { items, add, remove };
}
