// lab's service worker, served from /sw.js so its scope is the whole app.
// It shows lab's pushes as notifications, answers a blocked run from a
// notification's action, and opens the run a notification is about when
// it is tapped. It caches nothing: the app is a live view of runs, and a
// stale offline copy would only mislead.

/// <reference lib="webworker" />

import { actionFailure, notificationFor, parsePayload, type NotificationData, type OpenMessage } from "../lib/notify";

declare const self: ServiceWorkerGlobalScope;

self.addEventListener("install", () => {
  // A new worker takes over at once: it holds no state worth waiting for.
  void self.skipWaiting();
});

self.addEventListener("activate", (e) => {
  e.waitUntil(self.clients.claim());
});

/** maxActions is how many buttons this platform's notifications show. */
const maxActions = (): number => (self as unknown as { Notification?: { maxActions?: number } }).Notification?.maxActions ?? 0;

self.addEventListener("push", (e) => {
  const { title, options } = notificationFor(parsePayload(e.data?.text()), maxActions());
  e.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (e) => {
  e.notification.close();
  const data = (e.notification.data ?? {}) as Partial<NotificationData>;
  const url = typeof data.url === "string" ? data.url : "/";
  const token = e.action ? data.tokens?.[e.action] : undefined;
  const done = token ? answer(token, url, e.notification.tag) : open(url);
  // waitUntil throws for an event not sent by the browser (a test can
  // only dispatch one itself); the work still runs.
  try {
    e.waitUntil(done);
  } catch {
    void done;
  }
});

/**
 * answer redeems an action's single-use token (the server checks the
 * dialog is still the one the notification named). When it did not land,
 * a notification says why and the run opens, so the operator answers it
 * there.
 */
async function answer(token: string, url: string, tag: string): Promise<void> {
  let status = 0;
  let message = "";
  try {
    const res = await fetch("/api/v1/push/act", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
      credentials: "omit",
    });
    if (res.ok) return;
    status = res.status;
    message = ((await res.json().catch(() => ({}))) as { error?: string }).error ?? "";
  } catch {
    /* offline: status 0 */
  }
  const why = actionFailure(status, message);
  const data: NotificationData = { url, reason: "unknown" };
  await self.registration.showNotification(why.title, { body: why.body, tag: tag || "lab-action", data, icon: "/icon-192.png" });
  await open(url);
}

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
