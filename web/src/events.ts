// The app's one live connection: an EventSource on /api/v1/events, fanned
// out to subscribers. Events are invalidations only. After the stream drops
// and comes back, subscribers are told to refetch everything, because
// events may have been missed meanwhile.
//
// The stream counts as alive only while something arrives: the server
// sends a heartbeat at once and every few seconds (lib/liveness), and a
// stream silent for 2.5 of them is closed and opened again, whatever the
// connection claims. When the page comes back into view (visibilitychange,
// pageshow) or the network comes back (online), a stream that has been
// quiet for longer than a heartbeat is not trusted either. `connected`
// says whether the app is in touch now; while it is not, screens mark
// what they show as possibly out of date.

import { createSignal } from "solid-js";
import { doubtConnections, eventsURL, type Event } from "./api";
import { announced, deadAfter, deadAt, defaultEveryMs, doubtful, firstRetryMs, nextRetry, type Heard } from "./lib/liveness";

type Listener = (e: Event) => void;
type ReconnectListener = () => void;

const listeners = new Set<Listener>();
const reconnectListeners = new Set<ReconnectListener>();
let source: EventSource | null = null;
let started = false;
let broken = false;
let retry: ReturnType<typeof setTimeout> | undefined;
let watchdog: ReturnType<typeof setTimeout> | undefined;
let wait = 0;
let heard: Heard = { at: 0, everyMs: defaultEveryMs };

const [connected, setConnected] = createSignal(true);
const [downSince, setDownSince] = createSignal<number | null>(null);

/** connected says whether the event stream is open and alive. */
export { connected, downSince };

function markDown(): void {
  broken = true;
  if (connected()) {
    setConnected(false);
    setDownSince(Date.now());
  }
}

/** alive notes that the stream delivered something, and rearms the watchdog. */
function alive(): void {
  heard = { ...heard, at: Date.now() };
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    // Silent past the deadline: the connection is dead, whatever it says,
    // and the others the browser keeps for reuse may be too.
    if (Date.now() >= deadAt(heard)) restart();
  }, deadAt(heard) - heard.at + 50);
}

function dispatch(type: string, data: string): void {
  alive();
  let e: Event;
  try {
    e = { ...(data ? (JSON.parse(data) as Event) : {}), type } as Event;
  } catch {
    return;
  }
  if (e.type === "heartbeat") {
    heard = { ...heard, everyMs: announced(e, heard.everyMs) };
    return;
  }
  listeners.forEach((fn) => fn(e));
}

function connect(): void {
  if (source || !started) return;
  const es = new EventSource(eventsURL, { withCredentials: true });
  source = es;
  // A stream that does not open in time is given up too: the browser may
  // have sent it down a kept connection that died without a word.
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    if (source !== es || es.readyState === EventSource.OPEN) return;
    // Not refused (that errors at once): stuck. Try again now, on another
    // connection, allowing longer each time for a network that is slow.
    doubtConnections(doubtMs);
    opens++;
    reconnect(true);
  }, openWithinMs());
  for (const t of ["run.changed", "run.messages.changed", "run.live.changed", "machine.changed", "heartbeat"]) {
    es.addEventListener(t, (ev) => dispatch(t, (ev as MessageEvent).data));
  }
  // A server that sends unnamed events with the type inside the JSON.
  es.onmessage = (ev) => {
    try {
      const e = JSON.parse(ev.data) as Event;
      if (e && typeof e.type === "string") dispatch(e.type, ev.data);
    } catch {
      /* not ours */
    }
  };
  es.onopen = () => {
    if (source !== es) return;
    wait = 0;
    opens = 0;
    alive();
    setConnected(true);
    setDownSince(null);
    if (broken) {
      broken = false;
      reconnectListeners.forEach((fn) => fn());
    }
  };
  es.onerror = () => {
    if (source !== es) return;
    markDown();
    if (es.readyState === EventSource.CLOSED) {
      // The browser gave up (e.g. a 401 or a restart): retry ourselves.
      source = null;
      schedule();
    }
  };
}

/** doubtMs is how long reads give up sooner once a stream was found dead. */
const doubtMs = 20000;
/** firstOpenMs is how long a first attempt may take to open; opens counts the stuck ones since the last open. */
const firstOpenMs = 1500;
let opens = 0;

/** openWithinMs is how long a new stream may take to open (its first heartbeat comes with it): short at first, doubling with each stuck attempt. */
function openWithinMs(): number {
  return Math.min(firstOpenMs * 2 ** opens, Math.max(heard.everyMs * deadAfter, 3000));
}

/** How many connections a browser keeps per host (HTTP/1.1), and how long a probe on one may take. */
const keptPerHost = 6;
const probeMs = 1500;

/**
 * dropDeadConnections sends a burst of tiny requests, one per connection
 * the browser may keep for reuse, and gives up on those that hang:
 * aborting a request closes its connection. A stream that went silent
 * usually took the kept connections with it; without this, each later
 * request would find one of them and hang until its timeout, one after
 * the other.
 */
async function dropDeadConnections(): Promise<void> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), probeMs);
  await Promise.allSettled(Array.from({ length: keptPerHost }, () => fetch("/healthz", { cache: "no-store", signal: ctrl.signal })));
  clearTimeout(timer);
}

/** schedule opens the stream again after the current wait. */
function schedule(): void {
  clearTimeout(retry);
  wait = wait === 0 ? firstRetryMs : nextRetry(wait);
  retry = setTimeout(connect, wait);
}

/** reconnect drops the stream and opens a new one: at once when now, else after the wait. */
function reconnect(now: boolean): void {
  clearTimeout(watchdog);
  clearTimeout(retry);
  source?.close();
  source = null;
  markDown();
  if (now) {
    wait = 0;
    connect();
  } else {
    schedule();
  }
}

/** restart gives up a stream found dead, and the connections that may have died with it, and opens a new one. */
function restart(): void {
  doubtConnections(doubtMs);
  markDown();
  void dropDeadConnections().then(() => started && reconnect(true));
}

/** check is run when the page may have been away: a stream quiet for too long is not trusted. */
function check(force = false): void {
  if (!started) return;
  if (force || !source || source.readyState !== EventSource.OPEN || doubtful(heard, Date.now())) restart();
}

function onVisible(): void {
  if (document.visibilityState === "visible") check();
}

function onPageShow(e: PageTransitionEvent): void {
  // Back from the back-forward cache: every connection was closed.
  check(e.persisted);
}

function onOnline(): void {
  check(true);
}

function onOffline(): void {
  markDown();
}

/** startEvents opens the stream (after login) and starts watching the page and the network. */
export function startEvents(): void {
  if (!started) {
    started = true;
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("pageshow", onPageShow);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
  }
  connect();
}

/** stopEvents closes it (on logout). */
export function stopEvents(): void {
  started = false;
  clearTimeout(retry);
  clearTimeout(watchdog);
  source?.close();
  source = null;
  document.removeEventListener("visibilitychange", onVisible);
  window.removeEventListener("pageshow", onPageShow);
  window.removeEventListener("online", onOnline);
  window.removeEventListener("offline", onOffline);
}

/** subscribe registers handlers; the returned function unsubscribes. */
export function subscribe(fn: Listener, onReconnect?: ReconnectListener): () => void {
  listeners.add(fn);
  if (onReconnect) reconnectListeners.add(onReconnect);
  return () => {
    listeners.delete(fn);
    if (onReconnect) reconnectListeners.delete(onReconnect);
  };
}
