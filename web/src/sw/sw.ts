// lab's service worker, served from /sw.js so its scope is the whole app.
// It does one job: show lab's pushes as notifications and open the run a
// notification is about when it is tapped. It caches nothing: the app is
// a live view of runs, and a stale offline copy would only mislead.

/// <reference lib="webworker" />

import { notificationFor, parsePayload, type NotificationData, type OpenMessage } from "../lib/notify";

declare const self: ServiceWorkerGlobalScope;

self.addEventListener("install", () => {
  // A new worker takes over at once: it holds no state worth waiting for.
  void self.skipWaiting();
});

self.addEventListener("activate", (e) => {
  e.waitUntil(self.clients.claim());
});

self.addEventListener("push", (e) => {
  const { title, options } = notificationFor(parsePayload(e.data?.text()));
  e.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (e) => {
  e.notification.close();
  const data = (e.notification.data ?? {}) as Partial<NotificationData>;
  const url = typeof data.url === "string" ? data.url : "/";
  const done = open(url);
  // waitUntil throws for an event not sent by the browser (a test can
  // only dispatch one itself); the window still opens.
  try {
    e.waitUntil(done);
  } catch {
    void done;
  }
});

/** open shows url in a window of the app: an open one navigates in place, else a new one opens. */
async function open(url: string): Promise<void> {
  const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const mine = wins.filter((c) => new URL(c.url).origin === self.location.origin);
  const target = mine.find((c) => c.focused) ?? mine.find((c) => c.visibilityState === "visible") ?? mine[0];
  if (target) {
    const msg: OpenMessage = { type: "lab:open", url };
    target.postMessage(msg);
    await target.focus().catch(() => undefined);
    return;
  }
  await self.clients.openWindow(url);
}
