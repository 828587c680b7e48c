// The line under a live run's header that says its permission mode and
// model as its transcript and screen say them, and opens the sheet that
// switches them (steer/SettingsSheet.tsx, its own chunk).

import { Show } from "solid-js";
import type { ProviderInfo, Settings } from "../api";
import { modeLabel, modelLabel } from "../lib/settings";

export function SettingsStrip(props: { provider: ProviderInfo | undefined; settings: Settings | null; onOpen: () => void }) {
  const mode = () => modeLabel(props.provider, props.settings?.mode);
  const model = () => modelLabel(props.provider, props.settings?.model);
  return (
    <button class="settings-strip" onClick={props.onOpen} aria-label="Mode and model" data-settings-strip>
      <span class="grow">
        <Show when={mode() || model()} fallback={<span class="muted">Mode and model</span>}>
          <Show when={mode()}>
            <span class="nw" data-mode-now>
              {mode()}
            </span>
          </Show>
          <Show when={mode() && model()}> · </Show>
          <Show when={model()}>
            <span class="nw mono" data-model-now>
              {model()}
            </span>
          </Show>
        </Show>
      </span>
      <span class="muted">Switch ›</span>
    </button>
  );
}
