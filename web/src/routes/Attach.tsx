// Sessions started outside lab: every live agent CLI process on the
// machine that lab did not start (the operator ran it in a terminal), with
// its folder, status and where it runs. Attaching makes a run that follows
// it; one in tmux can be answered and replied to from here, one outside
// tmux can only be read. Lab never ends such a process: detaching leaves
// it running.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, type ExternalSession } from "../api";
import { Header } from "../components/Header";
import { baseName } from "../lib/format";
import { providerLabel } from "../providers";
import { navigate } from "../router";
import { manyMachines } from "../machines";
import "../styles/attach.css";

const refreshEvery = 3000;

export function Attach() {
  const [items, setItems] = createSignal<ExternalSession[] | null>(null);
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(0);
  let timer: ReturnType<typeof setInterval> | undefined;

  async function load() {
    try {
      setItems(await api.externalSessions());
      setError("");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  onMount(() => {
    load();
    timer = setInterval(load, refreshEvery);
  });
  onCleanup(() => clearInterval(timer));

  async function attach(s: ExternalSession) {
    if (s.run_id) return navigate(`/runs/${encodeURIComponent(s.run_id)}`);
    setBusy(s.pid);
    setError("");
    try {
      const run = await api.attach(s.pid, s.provider, s.machine);
      navigate(`/runs/${encodeURIComponent(run.id)}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      load();
    } finally {
      setBusy(0);
    }
  }

  return (
    <div class="screen">
      <Header title="Attach" back="/" sub="Sessions started outside lab" />
      <main class="scroll list">
        <Show when={error()}>
          <p class="error pad" role="alert">
            {error()}
          </p>
        </Show>
        <Show when={items()} fallback={<p class="muted pad">Looking for sessions…</p>}>
          <Show
            when={items()!.length > 0}
            fallback={<p class="muted pad">No agent CLI session is running outside lab on this machine.</p>}
          >
            <ul class="rows">
              <For each={items()}>
                {(s) => (
                  <li class="ext-row" data-external={s.pid}>
                    <div class="row-main">
                      <div class="row-title">{s.title || baseName(s.cwd)}</div>
                      <div class="row-sub muted">
                        <Show when={manyMachines() && s.machine}>
                          <span class="tag machine" data-machine={s.machine}>
                            {s.machine}
                          </span>{" "}
                        </Show>
                        <span class="provider" data-provider={s.provider}>
                          {providerLabel(s.provider)}
                        </span>{" "}
                        · {s.cwd}
                        <Show when={s.session_id}>
                          {" "}
                          · <span class="mono">{s.session_id.slice(s.session_id.indexOf("~") + 1).slice(0, 8)}</span>
                        </Show>
                      </div>
                      <div class="ext-where">
                        <span class="tag" classList={{ waiting: !!s.pending || s.status === "waiting" }} data-status>
                          {statusText(s)}
                        </span>
                        <Show
                          when={!s.read_only && s.tmux}
                          fallback={
                            <span class="ext-ro" data-readonly>
                              Read-only: {s.read_only}
                            </span>
                          }
                        >
                          <span class="tag" data-pane>
                            tmux {s.tmux!.session ? `${s.tmux!.session}:` : ""}
                            {s.tmux!.pane}
                          </span>
                        </Show>
                      </div>
                    </div>
                    <button class={`btn${s.run_id ? "" : " primary"}`} disabled={busy() !== 0} onClick={() => attach(s)} data-action="attach">
                      {s.run_id ? "Open" : "Attach"}
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </Show>
        <p class="muted pad ext-note">
          Lab never ends these processes. Detaching from one only stops following it; a session outside tmux can be read but not answered.
        </p>
      </main>
    </div>
  );
}

/** statusText says what the session is doing: waiting for its operator first, whatever the CLI reports. */
function statusText(s: ExternalSession): string {
  if (s.pending) return "waiting for you";
  if (s.status === "waiting") return s.waiting_for ? `waiting for you: ${s.waiting_for}` : "waiting for you";
  return s.status || "running";
}
