// The live model of one conversation: the held window of messages, the
// derived state and the pending dialog, kept fresh by SSE-driven, debounced
// refetches and paged back on demand. Pure decisions live in lib/ (merge,
// refetch); this file only sequences requests and holds signals.

import { batch, createEffect, createSignal, on, onCleanup } from "solid-js";
import { ApiError, type Dialog, type Lifecycle, type LiveText, type Message, type Page, type Partial, type Progress, type Settings, type State, type Usage, type WindowQuery } from "../api";
import { connected, subscribe } from "../events";
import { mergePartials } from "../lib/live";
import { prerenderMarkdown } from "../lib/markdown";
import { emptyWindow, firstSeq, lastSeq, mergeWindow, type Window } from "../lib/merge";
import { idle, nextFetch, noteChange, noteReconnect, type Plan } from "../lib/refetch";

/** Window sizes: the latest window opens the chat, older ones page back. */
export const latestLimit = 100;
export const olderLimit = 150;
export const afterLimit = 500;
const debounceMs = 150;
const safetyPollMs = 20000;
/** While the agent works, a read this often also keeps its live text being read (the server's lease is 15 s). */
const workingPollMs = 10000;
/** A read that failed while the stream is up is tried again after this. */
const retryMs = 2000;

/** warm renders a window's markdown in one sanitizer pass before it shows. */
function warm(msgs: readonly Message[], pending?: Dialog | null): void {
  const srcs: string[] = [];
  for (const m of msgs) {
    if (m.kind === "text" && m.role !== "user" && m.text) srcs.push(m.text);
    else if (m.kind === "dialog" && m.dialog?.plan) srcs.push(m.dialog.plan);
  }
  if (pending?.plan) srcs.push(pending.plan);
  prerenderMarkdown(srcs);
}

export interface Source {
  fetch(q: WindowQuery): Promise<Page>;
  /** Set for a live run: its events trigger refetches. */
  runId?: string;
}

export type Conversation = ReturnType<typeof createConversation>;

export function createConversation(src: Source) {
  const [win, setWin] = createSignal<Window>(emptyWindow);
  const [state, setState] = createSignal<State | null>(null);
  const [pending, setPending] = createSignal<Dialog | null>(null);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  // The permission mode and model a live run uses now.
  const [settings, setSettings] = createSignal<Settings | null>(null);
  // A problem the CLI's screen shows that the stream cannot.
  const [alert, setAlert] = createSignal<Lifecycle | null>(null);
  // What the conversation used of its model (the meter).
  const [usage, setUsage] = createSignal<Usage | null>(null);
  const [error, setError] = createSignal("");
  // The conversation does not exist (404): the screen shows not found.
  const [notFound, setNotFound] = createSignal(false);
  // The last failure was the server being unreachable.
  const [offline, setOffline] = createSignal(false);
  const [loaded, setLoaded] = createSignal(false);
  const [loadingOlder, setLoadingOlder] = createSignal(false);
  // The words the agent's CLI is drawing now, and lab's copies of words
  // a CLI drew but never recorded (served beside the stream).
  const [live, setLive] = createSignal<LiveText | null>(null);
  const [partials, setPartials] = createSignal<readonly Partial[]>([]);
  // What is held was read while connected, after the last reconnect: until
  // then state, cards and the working row are only the last known.
  const [fresh, setFresh] = createSignal(true);
  let epoch = 0; // counts disconnections
  let lastRead = 0; // when the last refresh began

  let transcript = "";
  let plan: Plan = idle;
  let inflight = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  /** apply shows a page: messages, state, card, working row and live text change together. */
  function apply(page: Page, replace: boolean) {
    const msgs = page.messages ?? [];
    warm(msgs, page.pending_dialog);
    batch(() => {
      if (replace) setWin(msgs.length ? { messages: msgs, hasMoreBefore: page.has_more_before } : emptyWindow);
      else setWin((w) => mergeWindow(w, msgs, page.has_more_before));
      transcript = page.transcript_id;
      setState(page.state);
      setPending(page.pending_dialog && page.pending_dialog.outcome == null ? page.pending_dialog : null);
      setProgress(page.state === "working" ? (page.progress ?? null) : null);
      setAlert(page.alert ?? null);
      setSettings(page.settings ?? null);
      setUsage(page.usage ?? null);
      setLive(page.state === "working" ? (page.live_text ?? null) : null);
      setPartials((cur) => mergePartials(replace ? [] : cur, page.partials ?? []));
    });
  }

  /** refresh runs one planned fetch; concurrent calls coalesce into one more. */
  async function refresh(): Promise<void> {
    if (inflight) {
      again = true;
      return;
    }
    inflight = true;
    lastRead = Date.now();
    const startedIn = epoch;
    const wasConnected = connected();
    try {
      const w = win();
      const f = nextFetch(plan, firstSeq(w), lastSeq(w));
      plan = idle;
      let page = await src.fetch(f.kind === "latest" ? { limit: latestLimit } : { after: f.after, limit: afterLimit });
      if (disposed) return;
      const changedTranscript = transcript !== "" && page.transcript_id !== transcript;
      if (changedTranscript && f.kind === "after") page = await src.fetch({ limit: latestLimit });
      apply(page, changedTranscript);
      // A long burst since the cursor: go back to the latest window next.
      if (f.kind === "after" && (page.messages?.length ?? 0) >= afterLimit) {
        plan = noteReconnect(plan);
        again = true;
      }
      setError("");
      setOffline(false);
      setLoaded(true);
      // Read while in touch and since the last disconnection: current.
      if (wasConnected && startedIn === epoch) setFresh(true);
    } catch (e) {
      if (!disposed) {
        setError(e instanceof Error ? e.message : String(e));
        setOffline(e instanceof ApiError && e.status === 0);
        if (e instanceof ApiError && e.status === 404 && !loaded()) setNotFound(true);
        // A read lost on the way while the stream is up (a dead pooled
        // connection): try again soon rather than wait for an event.
        if (e instanceof ApiError && e.status === 0 && connected()) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(() => void refresh(), retryMs);
        }
      }
    } finally {
      inflight = false;
      if (again && !disposed) {
        again = false;
        void refresh();
      }
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), debounceMs);
  }

  /** loadOlder fetches the window before the oldest held message. */
  async function loadOlder(): Promise<boolean> {
    const w = win();
    if (!w.hasMoreBefore || loadingOlder() || w.messages.length === 0) return false;
    setLoadingOlder(true);
    try {
      const page = await src.fetch({ before: firstSeq(w), limit: olderLimit });
      if (disposed) return false;
      if (page.transcript_id !== transcript) {
        plan = noteReconnect(plan);
        void refresh();
        return false;
      }
      warm(page.messages ?? []);
      setWin((cur) => mergeWindow(cur, page.messages ?? [], page.has_more_before));
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setLoadingOlder(false);
    }
  }

  /** reload forces a full refetch, e.g. after a 409 on answer. */
  function reload() {
    plan = noteReconnect(plan);
    void refresh();
  }

  if (src.runId) {
    const id = src.runId;
    onCleanup(
      subscribe(
        (e) => {
          if (e.run_id !== id) return;
          // The state, the card and the working row come from the page
          // the event asks for, all together: never the event's state
          // beside a card of the last page.
          if (e.type === "run.messages.changed") {
            plan = noteChange(plan, e.backpatch_seq);
            schedule();
          } else if (e.type === "run.changed" || e.type === "run.live.changed") {
            schedule();
          }
        },
        () => reload(),
      ),
    );
    const poll = setInterval(() => {
      const every = state() === "working" ? workingPollMs : safetyPollMs;
      if (document.visibilityState === "visible" && Date.now() - lastRead >= every) void refresh();
    }, 1000);
    onCleanup(() => clearInterval(poll));
    createEffect(
      on(connected, (up) => {
        if (!up) {
          epoch++;
          setFresh(false);
        }
      }),
    );
  }
  onCleanup(() => {
    disposed = true;
    clearTimeout(timer);
    clearTimeout(retryTimer);
  });

  void refresh();

  return { win, state, pending, alert, progress, settings, usage, live, partials, fresh, error, notFound, offline, loaded, loadingOlder, refresh, loadOlder, reload };
}
