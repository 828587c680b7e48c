// Machines: this lab and the peers whose runs it shows (a hub). Pure rules
// for the runs list and settings: which machine's runs are stale (it
// cannot be reached, or refuses this lab's token), and what to say.

import type { Machine, Run } from "../api";

/** isDown says the machine's runs are only as last seen. */
export function isDown(m: Machine | undefined): boolean {
  return m?.status === "unreachable" || m?.status === "revoked";
}

/** clock formats a time of day ("14:03"), with the date when not today. */
export function clock(t: string, now = new Date()): string {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return "";
  const hm = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  return d.toDateString() === now.toDateString() ? hm : `${d.toISOString().slice(0, 10)} ${hm}`;
}

/** machineNote says in a line why a machine's runs are stale, "" when they are live. */
export function machineNote(m: Machine, now = new Date()): string {
  const since = m.since ? ` since ${clock(m.since, now)}` : "";
  switch (m.status) {
    case "unreachable":
      return `unreachable${since}: its runs as last seen`;
    case "revoked":
      return `refuses this lab's token${since}: give it a new one in Settings`;
    case "connecting":
      return "connecting…";
  }
  return "";
}

/** staleRuns marks the runs of machines that are down, by run id. */
export function staleRuns(runs: readonly Run[], machines: readonly Machine[]): Set<string> {
  const down = new Set(machines.filter(isDown).map((m) => m.name));
  return new Set(runs.filter((r) => r.machine && down.has(r.machine)).map((r) => r.id));
}

/** peerNameOK mirrors the server's rule for a peer's name: 1-32 of a-z, 0-9 and '-', not starting with '-'. */
export function peerNameOK(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,31}$/.test(name);
}
