// One tap to compact a full context. lab sends a slash command as the CLI
// runs it through the slash-command endpoints (issue 18, item 2: the run's
// command list, and running one), never as chat text. Until the server
// offers them (the list answers 404), there is no button: compactFor
// resolves to null. This is the one place that knows how.

import { call } from "../api";

interface CommandList {
  commands?: { name: string }[] | null;
}

/** compactFor resolves to a function that compacts run id's context, or null when the server cannot. */
export async function compactFor(id: string): Promise<(() => Promise<void>) | null> {
  const path = `/runs/${encodeURIComponent(id)}/commands`;
  try {
    const list = await call<CommandList>("GET", path);
    if (!list.commands?.some((c) => c.name.replace(/^\//, "") === "compact")) return null;
  } catch {
    return null;
  }
  return async () => {
    await call<unknown>("POST", path, { name: "compact" });
  };
}
