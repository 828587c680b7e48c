// The doors of the steering pieces in the app's first download: the slash
// menu and the mode and model sheet load on first use (dynamic imports,
// as the changes sheet does), and a run's command list is fetched once per
// chat.

import { createSignal } from "solid-js";
import { api, type Command } from "../api";
import { lazySheet } from "../components/lazysheet";
import type { SettingsSheetProps } from "./SettingsSheet";
import type { SlashMenuProps } from "./SlashMenu";

const slash = lazySheet<SlashMenuProps>(() => import("./SlashMenu"));
const settings = lazySheet<SettingsSheetProps>(() => import("./SettingsSheet"));
export const slashMenu = slash.sheet;
export const loadSlashMenu = slash.load;
export const settingsSheet = settings.sheet;
export const loadSettingsSheet = settings.load;

/** runCommands is a run's command list, fetched once: null until it arrives (or after a failure, when the next load tries again). */
export function runCommands(runId: string) {
  const [list, setList] = createSignal<Command[] | null>(null);
  let loading: Promise<void> | undefined;
  const load = () => {
    loading ??= api.commands(runId).then(setList, () => {
      loading = undefined;
    }) as Promise<void>;
  };
  return { list, load };
}
