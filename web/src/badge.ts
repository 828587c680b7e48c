// The document title and the installed app's badge count the runs that
// wait on the operator with something new (blocked, or a finished turn not
// read since), on every screen: a tab in the background or an icon on the
// home screen says "2" without opening the app.

import { onCleanup, onMount } from "solid-js";
import { api } from "./api";
import { subscribe } from "./events";
import { titleFor, waitingCount } from "./lib/attention";

type BadgeNavigator = Navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

/** showWaiting puts n into the title and the app badge. */
export function showWaiting(n: number): void {
  document.title = titleFor(n);
  const nav = navigator as BadgeNavigator;
  if (n > 0) void nav.setAppBadge?.(n).catch(() => undefined);
  else void nav.clearAppBadge?.().catch(() => undefined);
}

/** trackAttention keeps the title and badge current; call it inside a component. */
export function trackAttention(): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = async () => {
    try {
      showWaiting(waitingCount(await api.runs()));
    } catch {
      /* offline: keep the last count */
    }
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 300);
  };
  onMount(() => {
    void load();
    onCleanup(subscribe((e) => e.type === "run.changed" && soon(), load));
  });
  onCleanup(() => {
    clearTimeout(timer);
    showWaiting(0);
  });
}
