// The outbox (lib/outbox): replies and answers that wait for the
// connection, kept in localStorage so a page the phone discarded meanwhile
// still sends them, sent one at a time, in order, when the event stream is
// back (and at start-up). Screens read it to show what waits and what
// could not be sent.

import { createSignal } from "solid-js";
import { api, ApiError, type Answer } from "./api";
import { connected, subscribe } from "./events";
import { answerFate, goneText, newKey, parseStored, retryable, toStore, type OutItem } from "./lib/outbox";

const storeKey = "lab.outbox.v1";

function load(): OutItem[] {
  try {
    return parseStored(localStorage.getItem(storeKey));
  } catch {
    return []; // storage off (private mode): memory only
  }
}

const [items, setItems] = createSignal<readonly OutItem[]>(load());
export { items as outbox };

/** Keys this tab has held; others' items in storage are kept when it saves (toStore). */
const held = new Set(items().map((i) => i.key));

function save(list: readonly OutItem[]): void {
  for (const i of list) held.add(i.key);
  setItems(list);
  try {
    localStorage.setItem(storeKey, JSON.stringify(toStore(list, load(), held)));
  } catch {
    /* memory only */
  }
}

function update(key: string, change: Partial<OutItem>): void {
  save(items().map((i) => (i.key === key ? { ...i, ...change } : i)));
}

function remove(key: string): void {
  save(items().filter((i) => i.key !== key));
}

type Settled = (error?: ApiError) => void;
/** Those waiting on an item's fate (an answer's card), by key. */
const settlers = new Map<string, Settled>();
/** Those told when a waiting reply was sent (its chat shows it as sent), by run. */
const sentListeners = new Set<(run: string, text: string) => void>();

function settle(key: string, error?: ApiError): void {
  settlers.get(key)?.(error);
  settlers.delete(key);
}

/** post makes one attempt; it throws ApiError. */
async function post(i: OutItem): Promise<void> {
  if (i.kind === "reply") await api.reply(i.run, i.text!, i.uploads, i.key);
  else await api.answer(i.run, i.answer!, i.key);
}

/** first sends a new item at once when connected; it waits in the outbox when it cannot be sent now. */
async function first(i: OutItem): Promise<"sent" | "queued"> {
  save([...items(), { ...i, status: connected() ? "sending" : "waiting" }]);
  if (!connected()) return "queued";
  try {
    await post(i);
    remove(i.key);
    return "sent";
  } catch (e) {
    if (e instanceof ApiError && retryable(e.status)) {
      update(i.key, { status: "waiting" });
      later();
      return "queued";
    }
    remove(i.key); // the server's verdict: the sender shows it, the text is still the operator's
    throw e;
  }
}

/** sendReply sends a reply (with the run's uploads it names) now, or keeps it until the connection is back. */
export function sendReply(run: string, text: string, uploads?: string[]): Promise<"sent" | "queued"> {
  return first({ key: newKey(), run, kind: "reply", text, ...(uploads?.length ? { uploads } : {}), at: Date.now(), status: "waiting" });
}

/**
 * sendAnswer sends an answer now, or keeps it until the connection is back
 * and then sends it if the same dialog still waits. It settles when the
 * answer was sent, and rejects (409) when it could not be.
 */
export async function sendAnswer(run: string, answer: Answer, about: string): Promise<void> {
  const key = newKey();
  const done = new Promise<void>((ok, fail) => settlers.set(key, (e) => (e ? fail(e) : ok())));
  try {
    if ((await first({ key, run, kind: "answer", answer, about, at: Date.now(), status: "waiting" })) === "sent") settle(key);
  } catch (e) {
    settle(key, e instanceof ApiError ? e : new ApiError(0, String(e)));
  }
  return done;
}

/** onSent hears of replies sent from the outbox. */
export function onSent(fn: (run: string, text: string) => void): () => void {
  sentListeners.add(fn);
  return () => sentListeners.delete(fn);
}

/** dismiss drops an item the operator has read about. */
export function dismiss(key: string): void {
  settle(key, new ApiError(409, "dismissed"));
  remove(key);
}

/** retry sends a failed item again. */
export function retry(key: string): void {
  update(key, { status: "waiting", error: undefined });
  void flush();
}

let flushing = false;
let again: ReturnType<typeof setTimeout> | undefined;

/** later flushes again in a while: a request failed on the way while the event stream looked fine. */
function later(): void {
  clearTimeout(again);
  again = setTimeout(() => void flush(), 5000);
}

/** flush sends what waits, oldest first, one at a time; it stops at the first the network refuses. */
export async function flush(): Promise<void> {
  if (flushing || !connected()) return;
  flushing = true;
  try {
    for (;;) {
      const i = items().find((x) => x.status === "waiting");
      if (!i) return;
      update(i.key, { status: "sending" });
      try {
        if (i.kind === "answer") {
          const page = await api.runMessages(i.run, { limit: 1 });
          if (answerFate(i, page.pending_dialog) === "gone") {
            const msg = goneText(i);
            update(i.key, { status: "failed", error: msg });
            settle(i.key, new ApiError(409, msg));
            continue;
          }
        }
        await post(i);
        remove(i.key);
        settle(i.key);
        if (i.kind === "reply") sentListeners.forEach((fn) => fn(i.run, i.text!));
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(0, String(e));
        if (retryable(err.status)) {
          update(i.key, { status: "waiting" });
          later(); // still out of reach: again soon, and at the next reconnect
          return;
        }
        const msg = i.kind === "answer" && err.status === 409 ? `Your answer was not sent: ${err.message}. Nothing was typed.` : `Not sent: ${err.message}`;
        update(i.key, { status: "failed", error: msg });
        settle(i.key, new ApiError(err.status, msg));
      }
    }
  } finally {
    flushing = false;
  }
}

let started = false;

/** startOutbox sends what waits now and whenever the event stream comes back (after login). */
export function startOutbox(): void {
  if (started) return;
  started = true;
  subscribe(
    () => {},
    () => void flush(),
  );
  void flush();
}
