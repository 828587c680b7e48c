// The changes sheet's door in the app's first download: it loads the
// sheet's chunk on first use (a dynamic import, no lazy() or Suspense,
// which would add to that download).

import { createSignal, type Component } from "solid-js";
import type { SheetProps } from "./ChangesSheet";

const [sheet, setSheet] = createSignal<Component<SheetProps>>();
let loading: Promise<void> | undefined;

/** changesSheet is the sheet's component once loaded; calling loadChangesSheet starts that. */
export const changesSheet = sheet;

/** loadChangesSheet fetches the sheet's chunk (once). */
export function loadChangesSheet(): Promise<void> {
  loading ??= import("./ChangesSheet").then(
    (m) => void setSheet(() => m.default),
    (e) => {
      loading = undefined; // offline: a later tap tries again
      throw e;
    },
  );
  return loading;
}
