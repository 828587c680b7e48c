// Settings: push notifications. This browser can be turned on (named, so
// the list says which phone is which); every subscribed device is listed
// with what it is told about, a test button and a remove button. Below,
// the other machines whose runs this lab shows (a chunk of its own).

import { type Component, createSignal, For, onMount, Show } from "solid-js";
import { api, type PushDevice, type PushOptions } from "../api";
import { Header } from "../components/Header";
import { defaultDeviceName } from "../lib/device";
import { ago } from "../lib/format";
import { disablePush, enablePush, myDeviceId, pushSupported } from "../push";
import { Alert, Note } from "../components/Alert";

const optionRows: { key: keyof PushOptions; label: string; hint: string }[] = [
  { key: "blocked", label: "When a run is blocked", hint: "a question, plan or permission prompt waits" },
  { key: "turn_end", label: "Quietly when a turn ends", hint: "no sound; the agent waits for your next message" },
  {
    key: "include_content",
    label: "Include conversation text",
    hint: "on: the question or command, with answer buttons (Allow once, Deny) where they fit; off: only the folder and what waits",
  },
];

export function Settings() {
  // The machines section is a chunk of its own, fetched when Settings
  // opens (a plain dynamic import: no suspense machinery in the bundle).
  const [Peers, setPeers] = createSignal<Component | null>(null);
  onMount(() => void import("../components/Peers").then((m) => setPeers(() => m.default)));
  const [devices, setDevices] = createSignal<PushDevice[] | null>(null);
  const [mine, setMine] = createSignal(myDeviceId());
  const [name, setName] = createSignal(defaultDeviceName(navigator.userAgent));
  const [busy, setBusy] = createSignal("");
  const [error, setError] = createSignal("");
  const [note, setNote] = createSignal("");
  const [step, setStep] = createSignal("");

  async function load() {
    try {
      const ds = await api.pushDevices();
      setDevices(ds);
      // A device id whose device is gone (pruned or removed elsewhere)
      // means this browser is off now.
      if (mine() && !ds.some((d) => d.id === mine())) setMine(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  onMount(load);

  async function act(what: string, fn: () => Promise<void>) {
    setBusy(what);
    setError("");
    setNote("");
    try {
      await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy("");
      void load();
    }
  }

  const turnOn = () =>
    act("enable", async () => {
      try {
        const d = await enablePush(name().trim() || defaultDeviceName(navigator.userAgent), setStep);
        setMine(d.id);
        setNote(`Notifications are on for ${d.name}.`);
      } finally {
        setStep("");
      }
    });

  const setOption = (d: PushDevice, key: keyof PushOptions, on: boolean) =>
    act("opt-" + d.id, async () => {
      const updated = await api.pushUpdate(d.id, { ...d.options, [key]: on });
      setDevices((ds) => ds?.map((x) => (x.id === d.id ? updated : x)) ?? null);
    });

  const test = (d: PushDevice) =>
    act("test-" + d.id, async () => {
      await api.pushTest(d.id);
      setNote(`Test notification sent to ${d.name}.`);
    });

  const remove = (d: PushDevice) =>
    act("remove-" + d.id, async () => {
      await disablePush(d.id);
      if (d.id === mine()) setMine(null);
    });

  return (
    <div class="screen">
      <Header title="Settings" back="/" />
      <main class="scroll">
        <section class="settings" aria-labelledby="push-h">
          <h2 id="push-h">Notifications</h2>
          <Alert error={error()} />
          <Note note={note()} />
          <Show
            when={pushSupported()}
            fallback={
              <p class="muted" data-push="unsupported">
                This browser cannot receive push notifications. On an iPhone, add lab to the Home Screen and open it from there.
              </p>
            }
          >
            <Show when={!mine()}>
              <div class="push-enable" data-push="enable">
                <label>
                  This device's name
                  <input name="device_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} maxLength={64} autocomplete="off" />
                </label>
                <button class="btn primary" disabled={busy() !== ""} onClick={turnOn} data-action="enable-push">
                  Turn on notifications
                </button>
                <Show when={step()}>
                  <p class="muted small" role="status" data-push-step>
                    {step()}
                  </p>
                </Show>
              </div>
            </Show>
          </Show>
          <Show when={devices()} fallback={<p class="muted">Loading…</p>}>
            <Show when={devices()!.length > 0} fallback={<p class="muted">No device gets notifications yet.</p>}>
              <ul class="devices">
                <For each={devices()}>
                  {(d) => (
                    <li class="device" data-device={d.id}>
                      <div class="device-head">
                        <div class="grow">
                          <div class="device-name">
                            {d.name}
                            <Show when={d.id === mine()}>
                              <span class="tag">this device</span>
                            </Show>
                          </div>
                          <div class="muted small">
                            {d.service}
                            <Show when={d.last_push_at}> · last push {ago(d.last_push_at)}</Show>
                          </div>
                          <Show when={d.last_error}>
                            <div class="error small">{d.last_error}</div>
                          </Show>
                        </div>
                      </div>
                      <For each={optionRows}>
                        {(o) => (
                          <label class="toggle">
                            <input
                              type="checkbox"
                              name={o.key}
                              checked={d.options[o.key]}
                              disabled={busy() !== ""}
                              onChange={(e) => setOption(d, o.key, e.currentTarget.checked)}
                            />
                            <span class="grow">
                              {o.label}
                              <span class="muted small hint">{o.hint}</span>
                            </span>
                          </label>
                        )}
                      </For>
                      <div class="device-actions">
                        <button class="btn" disabled={busy() !== ""} onClick={() => test(d)} data-action="test-push">
                          Send test
                        </button>
                        <button class="btn danger" disabled={busy() !== ""} onClick={() => remove(d)} data-action="remove-device">
                          Remove
                        </button>
                      </div>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </Show>
        </section>
        <Show when={Peers()} fallback={<p class="muted pad">Loading…</p>}>
          {(P) => P()({})}
        </Show>
      </main>
    </div>
  );
}
