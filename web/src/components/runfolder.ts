// The open run's folder, for what inside its chat names files: a path in
// it reads relative to it. Chats without a run (history) have none.

import { createContext, useContext } from "solid-js";

export const RunFolder = createContext<() => string | undefined>(() => undefined);

/** runFolder is the folder of the run whose chat this is, if any. */
export function runFolder(): string | undefined {
  return useContext(RunFolder)();
}
