// The doors of the steering pieces in the app's first download: the slash
// menu and the mode and model sheet load on first use (dynamic imports,
// as the changes sheet does), and a run's command list is fetched once per
// chat.

import { createSignal, type Component } from "solid-js";
import { api, type Command } from "../api";
import type { SettingsSheetProps } from "./SettingsSheet";
import type { SlashMenuProps } from "./SlashMenu";

/** door holds a lazily imported component: the signal, and the load that fills it (once; again after a failure). */
function door<P extends object>(load: () => Promise<{ default: Component<P> }>) {
  const [c, setC] = createSignal<Component<P>>();
  let loading: Promise<void> | undefined;
  const start = (): Promise<void> =>
    (loading ??= load().then(
      (m) => void setC(() => m.default),
      (e) => {
        loading = undefined;
        throw e;
      },
    ));
  return [c, start] as const;
}

export const [slashMenu, loadSlashMenu] = door<SlashMenuProps>(() => import("./SlashMenu"));
export const [settingsSheet, loadSettingsSheet] = door<SettingsSheetProps>(() => import("./SettingsSheet"));

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
