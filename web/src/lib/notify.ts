// What a push from lab says and how the service worker shows it. The
// payload is push.Payload (internal/push/payload.go); anything malformed
// still becomes a notification, because a push that shows nothing makes
// browsers show their own generic one and may revoke the permission.

export type PushReason = "blocked" | "turn_end" | "test";

export interface PushPayload {
  reason: PushReason;
  run_id?: string;
  url: string;
  title: string;
  body: string;
  tag: string;
  quiet?: boolean;
}

export interface NotificationData {
  url: string;
  run_id?: string;
  reason: PushReason | "unknown";
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
  };
}

/** safePath keeps only same-origin absolute paths: a push never opens another site. */
export function safePath(u: string): string {
  if (!u.startsWith("/") || u.startsWith("//") || u.includes("\\")) return "/";
  return u;
}

/** notificationFor is the title and options the service worker shows. */
export function notificationFor(p: PushPayload): { title: string; options: NotificationOptions & { renotify?: boolean } } {
  const data: NotificationData = { url: p.url, run_id: p.run_id, reason: p.reason };
  return {
    title: p.title,
    options: {
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
