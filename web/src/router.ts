// A tiny history-API router: the app has seven screens, which does not earn
// a router dependency. The Go server answers every client route with
// index.html, so deep links and reloads work.

import { createSignal } from "solid-js";

const [path, setPath] = createSignal(location.pathname);
export { path };

window.addEventListener("popstate", () => setPath(location.pathname));

/** navigate moves to p (a path, maybe with a ?query), adding a history entry unless replace is set. */
export function navigate(p: string, replace = false): void {
  if (p === location.pathname + location.search) return;
  if (replace) history.replaceState(null, "", p);
  else history.pushState(null, "", p);
  setPath(location.pathname);
}

export type Route =
  | { name: "login" }
  | { name: "setup" }
  | { name: "runs" }
  | { name: "new" }
  | { name: "attach" }
  | { name: "run"; id: string }
  | { name: "history" }
  | { name: "session"; id: string }
  | { name: "settings" };

/** match maps a path to a route; unknown paths show the runs list. */
export function match(p: string): Route {
  const parts = p.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "login") return { name: "login" };
  if (parts[0] === "setup") return { name: "setup" };
  if (parts[0] === "new") return { name: "new" };
  if (parts[0] === "settings") return { name: "settings" };
  if (parts[0] === "attach") return { name: "attach" };
  if (parts[0] === "runs" && parts[1]) return { name: "run", id: parts[1] };
  if (parts[0] === "history" && parts[1]) return { name: "session", id: parts[1] };
  if (parts[0] === "history") return { name: "history" };
  return { name: "runs" };
}

/** linkHandler makes an <a href> navigate in-app on a plain click. */
export function linkHandler(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement) ?? null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href") ?? "/");
}
