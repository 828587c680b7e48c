// What the operator sent that lab has not taken yet: a reply or an answer
// made while the connection was down (or whose request died on the way)
// waits here, kept in the browser's storage, and is sent when the
// connection is back, once. Each carries the Idempotency-Key it is sent
// with on every attempt, so one that did land before its answer was lost
// is not typed twice. An answer is sent only if the same dialog still
// waits (same tool_id); otherwise the operator is told, and nothing is
// typed. Nothing is dropped silently: what could not be sent stays, with
// the reason, until the operator dismisses it.

import type { Answer, Dialog } from "../api";

export type OutKind = "reply" | "answer";
/** waiting: for the connection; sending: a request is out; failed: not sent, with the reason. */
export type OutStatus = "waiting" | "sending" | "failed";

export interface OutItem {
  /** The Idempotency-Key of every attempt; also the item's id. */
  key: string;
  run: string;
  kind: OutKind;
  /** A reply's text, and the ids of the run's uploads it carries. */
  text?: string;
  uploads?: string[];
  /** An answer, and what its dialog asked (for messages). */
  answer?: Answer;
  about?: string;
  /** When the operator sent it (ms). */
  at: number;
  status: OutStatus;
  error?: string;
}

/** newKey is a random idempotency key: 32 hex digits (getRandomValues works on plain http too). */
export function newKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** parseStored reads the kept items; anything malformed is skipped. One left "sending" (the page went away mid-request) waits again: its key makes the next attempt safe. */
export function parseStored(raw: string | null): OutItem[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const out: OutItem[] = [];
  for (const x of data as Partial<OutItem>[]) {
    if (!x || typeof x.key !== "string" || typeof x.run !== "string" || typeof x.at !== "number") continue;
    if (x.uploads !== undefined && !(Array.isArray(x.uploads) && x.uploads.every((u) => typeof u === "string"))) continue;
    if (x.kind === "reply" && typeof x.text === "string") out.push({ ...(x as OutItem), status: x.status === "failed" ? "failed" : "waiting" });
    else if (x.kind === "answer" && x.answer && typeof x.answer.tool_id === "string")
      out.push({ ...(x as OutItem), status: x.status === "failed" ? "failed" : "waiting" });
  }
  return out;
}

/** answerFate says whether a waiting answer may be sent: only to the very dialog it answers, still waiting. */
export function answerFate(item: OutItem, pending: Dialog | null): "send" | "gone" {
  return pending && pending.outcome == null && pending.tool_id === item.answer?.tool_id ? "send" : "gone";
}

/** goneText tells the operator why an answer was not sent. */
export function goneText(item: OutItem): string {
  const what = item.about ? `“${item.about}”` : "the question";
  return `Your answer to ${what} was not sent: it was answered or withdrawn while you were offline. Nothing was typed.`;
}

/** retryable says whether a failed attempt is the network's (try again later), not the server's verdict. */
export function retryable(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

/**
 * toStore is what a tab writes back to storage: its own items, and those
 * another tab stored that this tab never held (one tab's write must not
 * wipe what another queued). An item this tab held and no longer holds
 * was sent or dropped here, and stays gone.
 */
export function toStore(mine: readonly OutItem[], stored: readonly OutItem[], held: ReadonlySet<string>): OutItem[] {
  return [...mine, ...stored.filter((i) => !held.has(i.key))];
}
