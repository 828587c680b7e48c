// The machines whose runs this lab shows (itself first, then its peers),
// shared by the screens: the runs list keeps it current from every load,
// others fetch it once when they need it. With one machine nothing shows
// machine names.

import { createSignal } from "solid-js";
import { api, type Machine } from "./api";

const [list, setList] = createSignal<Machine[]>([]);

/** machines is the last known list, this lab first. */
export const machines = list;

/** setMachines records a list the server sent (with the runs, say). */
export function setMachines(ms: Machine[] | null | undefined): void {
  if (ms && ms.length > 0) setList(ms);
}

/** loadMachines fetches the list when none is known yet. */
export async function loadMachines(): Promise<Machine[]> {
  if (list().length > 0) return list();
  const p = await api.peers();
  const ms: Machine[] = [{ name: p.machine, local: true, status: "ok" }, ...(p.peers ?? [])];
  setList(ms);
  return ms;
}

/** manyMachines says runs and sessions should say which machine they are on. */
export function manyMachines(): boolean {
  return list().length > 1;
}
