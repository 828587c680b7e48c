// The history list's address with its search, remembered so a session's
// back link returns to the list as it was left. The browser's own back
// button gets the same from the address bar, which the list keeps
// current.

let last = "/history";

/** rememberHistory records the history list's current address. */
export function rememberHistory(path: string): void {
  last = path.startsWith("/history") ? path : "/history";
}

/** historyBack is where a session's back link goes. */
export function historyBack(): string {
  return last;
}
