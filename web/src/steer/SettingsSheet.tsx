// The run's permission mode and model, switched from the phone: the modes
// and models the run's CLI can switch to while it waits, the current ones
// marked (as its transcript and screen say). A switch goes through the
// CLI's own key or command and returns once its screen confirmed it; the
// server refuses one while the agent works, and says why. Its own chunk,
// loaded when the strip is first tapped.

import { createSignal, For, Show } from "solid-js";
import type { ProviderInfo, Settings, State } from "../api";
import { isModel } from "../lib/settings";
import "./steer.css";

export interface SettingsSheetProps {
  provider: ProviderInfo | undefined;
  settings: Settings | null;
  state: State | null;
  onMode: (mode: string) => Promise<void>;
  onModel: (model: string) => Promise<void>;
  onClose: () => void;
}

export default function SettingsSheet(props: SettingsSheetProps) {
  const [busy, setBusy] = createSignal("");
  const [error, setError] = createSignal("");
  const modes = () => (props.provider?.switch_modes ?? []).map((v) => props.provider?.modes.find((m) => m.value === v) ?? { value: v, label: v, help: "" });
  const models = () => props.provider?.models ?? [];
  const waiting = () => props.state === "needs_input" || props.state === "idle";

  async function act(what: string, fn: () => Promise<void>) {
    setBusy(what);
    setError("");
    try {
      await fn();
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy("");
    }
  }

  return (
    <>
      <div class="steer-scrim" onClick={props.onClose} />
      <section class="steer-sheet" role="dialog" aria-label="Mode and model" data-settings-sheet>
        <div class="note-line">
          <strong class="grow">Mode and model</strong>
          <button class="btn" onClick={props.onClose} data-action="close-settings">
            Close
          </button>
        </div>
        <div class="steer-body">
          <Show when={!waiting()}>
            <p class="muted small" data-settings-wait>
              The agent is busy: switch when it waits for you.
            </p>
          </Show>
          <Show when={error()}>
            <p class="error" role="alert">
              {error()}
            </p>
          </Show>
          <Show when={modes().length}>
            <h2>Mode</h2>
            <div role="radiogroup" aria-label="Permission mode">
              <For each={modes()}>
                {(m) => (
                  <button
                    class="steer-opt"
                    role="radio"
                    aria-checked={props.settings?.mode === m.value}
                    disabled={!!busy() || !waiting()}
                    onClick={() => act(m.value, () => props.onMode(m.value))}
                    data-mode={m.value}
                  >
                    <span>
                      {m.label}
                      {busy() === m.value ? " — switching…" : ""}
                    </span>
                    <Show when={m.help}>
                      <span class="small">{m.help}</span>
                    </Show>
                  </button>
                )}
              </For>
            </div>
          </Show>
          <Show when={models().length}>
            <h2>Model</h2>
            <div role="radiogroup" aria-label="Model">
              <For each={models()}>
                {(m) => (
                  <button
                    class="steer-opt"
                    role="radio"
                    aria-checked={isModel(props.settings?.model, m.value)}
                    disabled={!!busy() || !waiting()}
                    onClick={() => act(m.value, () => props.onModel(m.value))}
                    data-model={m.value}
                  >
                    <span>
                      {m.label}
                      {busy() === m.value ? " — switching…" : ""}
                    </span>
                    <Show when={m.help}>
                      <span class="small">{m.help}</span>
                    </Show>
                  </button>
                )}
              </For>
            </div>
          </Show>
        </div>
      </section>
    </>
  );
}
