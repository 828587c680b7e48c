// Web Push in the page: registering the service worker, turning
// notifications on and off for this browser, telling the server which run
// this page shows (so it holds back pushes about it), and opening the run a
// tapped notification names. The device id the server gave this browser is
// kept in localStorage; the subscription itself lives in the browser.

import { createEffect, on, onCleanup } from "solid-js";
import { api, ApiError, type PushDevice } from "./api";
import { keyBytes, sameKey } from "./lib/device";
import { isOpenMessage } from "./lib/notify";
import { navigate, path } from "./router";

const deviceKey = "lab.push.device";
const presenceEveryMs = 15000; // push.PresenceEvery

/** pushSupported says whether this browser can receive Web Push at all. */
export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** myDeviceId is the server's id for this browser's subscription, if any. */
export function myDeviceId(): string | null {
  try {
    return localStorage.getItem(deviceKey);
  } catch {
    return null;
  }
}

function setMyDeviceId(id: string | null): void {
  try {
    if (id) localStorage.setItem(deviceKey, id);
    else localStorage.removeItem(deviceKey);
  } catch {
    /* private mode: presence just stays off */
  }
}

let registration: Promise<ServiceWorkerRegistration | null> | null = null;

/**
 * registerWorker registers /sw.js once per page and listens for the
 * worker's "open this run" messages. Without service workers (or in the
 * Vite dev server, which has no sw.js) it resolves to null.
 */
export function registerWorker(): Promise<ServiceWorkerRegistration | null> {
  if (registration) return registration;
  if (!("serviceWorker" in navigator)) return (registration = Promise.resolve(null));
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (isOpenMessage(e.data)) navigate(e.data.url);
  });
  navigator.serviceWorker.startMessages();
  registration = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  return registration;
}

/** subscribeTimeoutMs bounds the browser's push service: some browsers have none and never answer. */
export const subscribeTimeoutMs = 15000;

/**
 * enablePush asks for permission, subscribes this browser with the
 * server's key and records the device under name, saying each step to
 * onStep. A subscription made with another key (the server's keys were
 * replaced) is renewed. Every failure, including a push service that
 * never answers, ends in an Error that says what failed.
 */
export async function enablePush(name: string, onStep: (step: string) => void = () => {}): Promise<PushDevice> {
  if (!pushSupported()) throw new Error("This browser cannot receive push notifications.");
  onStep("Starting the service worker…");
  const reg = await registerWorker();
  if (!reg) throw new Error("The service worker could not be registered: is the page on https (or localhost)?");
  onStep("Asking for permission…");
  const perm = await Notification.requestPermission();
  if (perm === "denied") throw new Error("Notifications are blocked for this site: allow them in the browser's site settings, then try again.");
  if (perm !== "granted") throw new Error("The permission prompt was dismissed: try again and choose Allow.");
  const key = keyBytes(await api.pushKey());
  const ready = await within(navigator.serviceWorker.ready, 10000, "The service worker did not start within 10 s: reload the page and try again.");
  let sub = await ready.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  if (!sub) {
    onStep("Subscribing with the browser's push service…");
    sub = await within(
      ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).catch((e: unknown) => {
        throw new Error(subscribeFailure(e));
      }),
      subscribeTimeoutMs,
      `The browser's push service did not answer within ${subscribeTimeoutMs / 1000} s: this browser may have none (some builds ship without one), or the network blocks it.`,
    );
  }
  onStep("Registering this device with lab…");
  const json = sub.toJSON();
  const d = await api.pushSubscribe(name, {
    endpoint: sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  });
  setMyDeviceId(d.id);
  void reportPresence();
  return d;
}

/** within rejects with message when p has not settled after ms. */
function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(message)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** subscribeFailure words the browser's refusal to subscribe. */
function subscribeFailure(e: unknown): string {
  const name = e instanceof DOMException ? e.name : "";
  if (name === "NotAllowedError") return "Notifications are blocked for this site: allow them in the browser's site settings, then try again.";
  if (name === "AbortError" || name === "NotSupportedError")
    return "The browser's push service is not available: this browser may have none, or it is switched off.";
  return "The browser could not subscribe: " + (e instanceof Error ? e.message : String(e));
}

/** disablePush removes a device; for this browser it also ends the subscription. */
export async function disablePush(id: string): Promise<void> {
  await api.pushUnsubscribe(id).catch((e) => {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  });
  if (id !== myDeviceId()) return;
  setMyDeviceId(null);
  const reg = await registerWorker();
  const sub = await reg?.pushManager.getSubscription();
  await sub?.unsubscribe();
}

/** runShown is the run whose chat the page shows, "" elsewhere. */
function runShown(p: string): string {
  const m = p.match(/^\/runs\/([^/]+)/);
  return m ? decodeURIComponent(m[1]!) : "";
}

/** reportPresence tells the server what this page shows now. */
async function reportPresence(): Promise<void> {
  const id = myDeviceId();
  if (!id) return;
  const visible = document.visibilityState === "visible";
  try {
    await api.pushPresence(id, runShown(path()), visible);
  } catch (e) {
    // The server pruned the subscription: this browser is no device now.
    if (e instanceof ApiError && e.status === 404) setMyDeviceId(null);
  }
}

/**
 * trackPresence reports this page's run while it is visible: on every
 * screen change, on becoming visible or hidden, and every 15 s (the server
 * forgets a report after 45 s). Call it inside a component.
 */
export function trackPresence(): void {
  createEffect(on(path, () => void reportPresence()));
  const onVis = () => void reportPresence();
  document.addEventListener("visibilitychange", onVis);
  const timer = setInterval(() => {
    if (document.visibilityState === "visible") void reportPresence();
  }, presenceEveryMs);
  onCleanup(() => {
    document.removeEventListener("visibilitychange", onVis);
    clearInterval(timer);
  });
}
