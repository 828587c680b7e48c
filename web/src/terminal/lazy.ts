// The terminal sheet's door in the app's first download (see lazysheet):
// the sheet and the terminal emulator it renders with load on first use.

import { lazySheet } from "../components/lazysheet";
import type { TerminalSheetProps } from "./TerminalSheet";

const door = lazySheet<TerminalSheetProps>(() => import("./TerminalSheet"));

/** terminalSheet is the sheet's component once loaded; loadTerminalSheet starts that. */
export const terminalSheet = door.sheet;
export const loadTerminalSheet = door.load;
