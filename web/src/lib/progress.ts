// The working row: how long the agent has been at it, and what it runs.

import type { Progress } from "../api";

/** elapsed formats the time since t as m:ss, or h:mm:ss past an hour. */
export function elapsed(since: string | undefined, now: number): string {
  const t = Date.parse(since ?? "");
  if (!Number.isFinite(t)) return "";
  const s = Math.max(0, Math.floor((now - t) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** toolLine names the running tool and its input on one line, else the slash command the CLI works on. */
export function toolLine(p: Progress | null | undefined): string {
  const t = p?.tool;
  if (!t) return p?.command ?? "";
  const input = t.input.replace(/\s+/g, " ").trim();
  return input ? `${t.name} ${input}` : t.name;
}
