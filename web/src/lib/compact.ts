// One tap to compact a full context. lab sends a slash command as the CLI
// runs it through the slash-command endpoints (issue 18, item 2: GET
// /runs/{id}/commands lists the run's, POST /runs/{id}/command {name}
// runs one), never as chat text. Until the server offers them (the list
// answers 404), or when the run's CLI lists no /compact it may send, there
// is no button: compactFor resolves to null. This is the one place that
// knows how.

import { call } from "../api";

interface CommandList {
  commands?: { name: string; refused?: string }[] | null;
}

/** compactFor resolves to a function that compacts run id's context, or null when the server cannot. */
export async function compactFor(id: string): Promise<(() => Promise<void>) | null> {
  const run = `/runs/${encodeURIComponent(id)}`;
  try {
    const list = await call<CommandList>("GET", `${run}/commands`);
    if (!list.commands?.some((c) => c.name.replace(/^\//, "") === "compact" && !c.refused)) return null;
  } catch {
    return null;
  }
  return async () => {
    await call<unknown>("POST", `${run}/command`, { name: "compact" });
  };
}
