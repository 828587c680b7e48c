// Small display helpers: state badges, the "needs you" rule, relative times,
// the recent directories offered when starting a run.

import type { Run, Session, State } from "../api";

export const stateLabel: Record<State, string> = {
  working: "working",
  question: "question",
  needs_input: "needs input",
  idle: "idle",
  ended: "ended",
};

/** ago formats how long before now t was, compactly ("now", "5m", "3h", "2d", or a date). */
export function ago(t: string | undefined, now = Date.now()): string {
  if (!t) return "";
  const ms = now - Date.parse(t);
  if (!Number.isFinite(ms)) return "";
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 45) return "now";
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  if (s < 86400 * 14) return `${Math.round(s / 86400)}d`;
  return new Date(t).toISOString().slice(0, 10);
}

/** recentDirs lists directories of recent runs and sessions, newest first, unique. */
export function recentDirs(runs: readonly Run[], sessions: readonly Session[], max = 8): string[] {
  const seen: { dir: string; t: number }[] = [];
  const add = (dir: string, t: string) => {
    if (!dir) return;
    const ms = Date.parse(t) || 0;
    const old = seen.find((x) => x.dir === dir);
    if (old) old.t = Math.max(old.t, ms);
    else seen.push({ dir, t: ms });
  };
  for (const r of runs) add(r.cwd, r.started_at);
  for (const s of sessions) add(s.project_path, s.mtime);
  return seen.sort((a, b) => b.t - a.t).slice(0, max).map((x) => x.dir);
}

/**
 * cliVersion describes the CLI a run uses: its version for display, and
 * whether lab was not verified against it (the operator is warned then).
 * Null when the run does not know its version.
 */
export function cliVersion(r: Pick<Run, "cli_version" | "cli_verified">): { label: string; unverified: boolean } | null {
  if (!r.cli_version) return null;
  return { label: `CLI ${r.cli_version}`, unverified: r.cli_verified !== true };
}

/** The warning shown with an unverified CLI version. */
export function cliWarning(version: string): string {
  return `CLI ${version} is not verified with lab: answers to pickers it changed are refused, never guessed.`;
}

/** baseName is the last path element, for compact titles. */
export function baseName(p: string): string {
  const parts = p.split("/").filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

/** bytes formats a size compactly. */
export function bytes(n: number | undefined): string {
  if (!n || n < 0) return "0 B";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
