// The screens that load on demand. The first paint needs only the shell,
// the runs list and the login form; every other screen is its own chunk,
// fetched the first time it shows (the chats bring the markdown renderer
// and sanitizer with them, so a chat never shows unrendered markdown: the
// screen itself waits for its chunk). A new screen or sheet joins the
// pattern with its own `lazy(() => import(...))`, here or where it opens,
// and is never imported statically by the shell (scripts/size.mjs checks
// the first paint's weight).

import { type Component, lazy } from "solid-js";

const reloadKey = "lab.chunk-reload";

/**
 * screen makes a lazily loaded component of a module's export. A chunk
 * that fails to load is most often one a newer build replaced (lab was
 * upgraded under an open page): the page reloads once to get the new
 * build, and only a second failure within a minute is an error.
 */
export function screen<P extends object>(load: () => Promise<Component<P>>) {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch (e) {
      const last = Number(sessionStorage.getItem(reloadKey) ?? 0);
      if (Date.now() - last > 60000) {
        sessionStorage.setItem(reloadKey, String(Date.now()));
        location.reload();
        return new Promise<never>(() => {});
      }
      throw e;
    }
  });
}

export const RunChat = screen(() => import("./RunChat").then((m) => m.RunChat));
export const SessionChat = screen(() => import("./SessionChat").then((m) => m.SessionChat));
export const NewRun = screen(() => import("./NewRun").then((m) => m.NewRun));
export const Attach = screen(() => import("./Attach").then((m) => m.Attach));
export const History = screen(() => import("./History").then((m) => m.History));
export const Settings = screen(() => import("./Settings").then((m) => m.Settings));

/**
 * preloadScreen starts fetching the chunk of the screen the page opens on
 * (a deep link to a chat), alongside the login check rather than after it.
 */
export function preloadScreen(route: string): void {
  if (route === "run") void RunChat.preload();
  else if (route === "session") void SessionChat.preload();
}

/**
 * preloadChat fetches the chat's chunks once the browser is idle, so
 * tapping a run in the list opens it without waiting for code.
 */
export function preloadChat(): void {
  const go = () => void RunChat.preload();
  if ("requestIdleCallback" in window) requestIdleCallback(go, { timeout: 3000 });
  else setTimeout(go, 1000);
}
