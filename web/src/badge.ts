// The document title and the installed app's badge count the runs that
// are blocked on the operator, on every screen: a tab in the background or
// an icon on the home screen says "2" without opening the app.

import { onCleanup, onMount } from "solid-js";
import { api } from "./api";
import { subscribe } from "./events";
import { blockedCount, titleFor } from "./lib/attention";

type BadgeNavigator = Navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

/** showBlocked puts n into the title and the app badge. */
export function showBlocked(n: number): void {
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
      showBlocked(blockedCount(await api.runs()));
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
    showBlocked(0);
  });
}
