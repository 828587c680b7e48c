// The changes sheet's door in the app's first download (see lazysheet).

import { lazySheet } from "../components/lazysheet";
import type { SheetProps } from "./ChangesSheet";

const door = lazySheet<SheetProps>(() => import("./ChangesSheet"));

/** changesSheet is the sheet's component once loaded; calling loadChangesSheet starts that. */
export const changesSheet = door.sheet;

/** loadChangesSheet fetches the sheet's chunk (once). */
export const loadChangesSheet = door.load;
