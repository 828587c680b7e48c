// The app's one live connection: an EventSource on /api/v1/events, fanned
// out to subscribers. Events are invalidations only. After the stream drops
// and comes back, subscribers are told to refetch everything, because
// events may have been missed meanwhile.

import { eventsURL, type Event } from "./api";

type Listener = (e: Event) => void;
type ReconnectListener = () => void;

const listeners = new Set<Listener>();
const reconnectListeners = new Set<ReconnectListener>();
let source: EventSource | null = null;
let broken = false;
let retry: ReturnType<typeof setTimeout> | undefined;
let backoff = 1000;

function dispatch(type: string, data: string): void {
  let e: Event;
  try {
    e = { ...(data ? (JSON.parse(data) as Event) : {}), type } as Event;
  } catch {
    return;
  }
  if (e.type === "heartbeat") return;
  listeners.forEach((fn) => fn(e));
}

function connect(): void {
  if (source) return;
  const es = new EventSource(eventsURL, { withCredentials: true });
  source = es;
  for (const t of ["run.changed", "run.messages.changed", "machine.changed", "heartbeat"]) {
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
    backoff = 1000;
    if (broken) {
      broken = false;
      reconnectListeners.forEach((fn) => fn());
    }
  };
  es.onerror = () => {
    broken = true;
    if (es.readyState === EventSource.CLOSED) {
      // The browser gave up (e.g. a 401 or a restart): retry ourselves.
      source = null;
      clearTimeout(retry);
      retry = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    }
  };
}

/** startEvents opens the stream (after login). */
export function startEvents(): void {
  connect();
}

/** stopEvents closes it (on logout). */
export function stopEvents(): void {
  clearTimeout(retry);
  source?.close();
  source = null;
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
