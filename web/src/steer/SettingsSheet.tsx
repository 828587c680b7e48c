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
import { Alert } from "../components/Alert";

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
          <Alert error={error()} />
          <Choices
            title="Mode"
            label="Permission mode"
            kind="mode"
            items={modes()}
            checked={(v) => props.settings?.mode === v}
            busy={busy()}
            disabled={!!busy() || !waiting()}
            onPick={(v) => act(v, () => props.onMode(v))}
          />
          <Choices
            title="Model"
            label="Model"
            kind="model"
            items={models()}
            checked={(v) => isModel(props.settings?.model, v)}
            busy={busy()}
            disabled={!!busy() || !waiting()}
            onPick={(v) => act(v, () => props.onModel(v))}
          />
        </div>
      </section>
    </>
  );
}

/** Choices is one group of the sheet: its options as radio buttons, the current one checked. */
function Choices(props: {
  title: string;
  label: string;
  kind: "mode" | "model";
  items: { value: string; label: string; help?: string }[];
  checked: (value: string) => boolean;
  busy: string;
  disabled: boolean;
  onPick: (value: string) => void;
}) {
  return (
    <Show when={props.items.length}>
      <h2>{props.title}</h2>
      <div role="radiogroup" aria-label={props.label}>
        <For each={props.items}>
          {(m) => (
            <button
              class="steer-opt"
              role="radio"
              aria-checked={props.checked(m.value)}
              disabled={props.disabled}
              onClick={() => props.onPick(m.value)}
              {...{ [`data-${props.kind}`]: m.value }}
            >
              <span>
                {m.label}
                {props.busy === m.value ? " — switching…" : ""}
              </span>
              <Show when={m.help}>
                <span class="small">{m.help}</span>
              </Show>
            </button>
          )}
        </For>
      </div>
    </Show>
  );
}
