// What a push from lab says and how the service worker shows it. The
// payload is push.Payload (internal/push/payload.go); anything malformed
// still becomes a notification, because a push that shows nothing makes
// browsers show their own generic one and may revoke the permission.

export type PushReason = "blocked" | "turn_end" | "test";

/** PushAction (push.Action): an answer the notification offers, with its single-use token. */
export interface PushAction {
  action: string;
  title: string;
  token: string;
}

export interface PushPayload {
  reason: PushReason;
  run_id?: string;
  url: string;
  title: string;
  body: string;
  tag: string;
  quiet?: boolean;
  actions?: PushAction[];
}

export interface NotificationData {
  url: string;
  run_id?: string;
  reason: PushReason | "unknown";
  /** The token of each offered action, by action id. */
  tokens?: Record<string, string>;
}

/** parsePayload reads a push's text; malformed input gives a generic note. */
export function parsePayload(text: string | null | undefined): PushPayload {
  const fallback: PushPayload = { reason: "blocked", url: "/", title: "lab", body: "A run may need you.", tag: "lab" };
  if (!text) return fallback;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fallback;
  }
  if (!raw || typeof raw !== "object") return fallback;
  const o = raw as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : "");
  const reason = (["blocked", "turn_end", "test"] as const).find((r) => r === o.reason) ?? "blocked";
  return {
    reason,
    run_id: str("run_id") || undefined,
    url: safePath(str("url")),
    title: str("title") || fallback.title,
    body: str("body"),
    tag: str("tag") || fallback.tag,
    quiet: o.quiet === true,
    actions: parseActions(o.actions),
  };
}

/** parseActions keeps the well-formed actions only. */
function parseActions(v: unknown): PushAction[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter(
    (a): a is PushAction =>
      !!a && typeof a === "object" && typeof a.action === "string" && a.action !== "" && typeof a.title === "string" && typeof a.token === "string" && a.token !== "",
  );
  return out.length ? out.map(({ action, title, token }) => ({ action, title, token })) : undefined;
}

/** safePath keeps only same-origin absolute paths: a push never opens another site. */
export function safePath(u: string): string {
  if (!u.startsWith("/") || u.startsWith("//") || u.includes("\\")) return "/";
  return u;
}

type ShownOptions = NotificationOptions & { renotify?: boolean; actions?: { action: string; title: string }[] };

/**
 * notificationFor is the title and options the service worker shows; max
 * is how many actions the platform shows (Notification.maxActions, 0 where
 * it has none: the notification then only opens the run).
 */
export function notificationFor(p: PushPayload, max = 0): { title: string; options: ShownOptions } {
  const data: NotificationData = { url: p.url, run_id: p.run_id, reason: p.reason };
  const acts = max > 0 && p.actions && p.actions.length <= max ? p.actions : [];
  if (acts.length) data.tokens = Object.fromEntries(acts.map((a) => [a.action, a.token]));
  return {
    title: p.title,
    options: {
      ...(acts.length ? { actions: acts.map(({ action, title }) => ({ action, title })) } : {}),
      body: p.body,
      tag: p.tag,
      data,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      // A blocked run alerts again even when it replaces an older
      // notification of the same run; a finished turn is quiet.
      silent: !!p.quiet,
      renotify: !p.quiet,
      requireInteraction: p.reason === "blocked",
    },
  };
}

/** openMessage is what the service worker posts to an open window to show a run. */
export interface OpenMessage {
  type: "lab:open";
  url: string;
}

export function isOpenMessage(m: unknown): m is OpenMessage {
  return !!m && typeof m === "object" && (m as OpenMessage).type === "lab:open" && typeof (m as OpenMessage).url === "string";
}

/**
 * actionFailure words why a notification's answer did not land, from the
 * server's status and error message; the run opens after it.
 */
export function actionFailure(status: number, message: string): { title: string; body: string } {
  if (status === 409) return { title: "lab: that prompt changed", body: "It was answered or changed meanwhile. Opening the run." };
  if (status === 404) return { title: "lab: that answer expired", body: "Answer it in the run, which opens now." };
  if (status === 0) return { title: "lab: not answered", body: "Cannot reach the lab server. Opening the run." };
  return { title: "lab: not answered", body: message || `The server answered ${status}.` };
}
