// The runs list: every run with its attention level, blocked ones first,
// then your turn, working, idle and ended, each by last activity; refreshed
// on every run event. On a hub, every machine's runs, each labelled with
// its machine; a machine that cannot be reached gets a row saying since
// when, and its last known runs stay, greyed, until it answers again.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, isOffline, type Machine, type Run } from "../api";
import { EmptyRuns } from "../components/EmptyRuns";
import { Header } from "../components/Header";
import { RunRow } from "../components/RunRow";
import { RunsHousekeeping } from "../components/RunsHousekeeping";
import { attentionOf, byAttention } from "../lib/attention";
import { connected, stopEvents, subscribe } from "../events";
import { isDown, machineNote, staleRuns } from "../lib/machines";
import { manyMachines, setMachines } from "../machines";
import { linkHandler } from "../router";

/** Runs is the runs list; selected marks the run open beside it on a desktop. */
export function Runs(props: { selected?: string }) {
  const [runs, setRuns] = createSignal<Run[] | null>(null);
  const [down, setDown] = createSignal<Machine[]>([]);
  const [stale, setStale] = createSignal(new Set<string>());
  const [error, setError] = createSignal("");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastError: unknown;

  async function load() {
    try {
      const list = await api.runList();
      const rs = list.runs ?? [];
      const ms = list.machines ?? [];
      setMachines(ms);
      setDown(ms.filter((m) => isDown(m) || m.status === "connecting"));
      setStale(staleRuns(rs, ms));
      setRuns(byAttention(rs));
      setError("");
    } catch (e) {
      lastError = e;
      setError(isOffline(e) ? "Offline: cannot reach the lab server." : e instanceof Error ? e.message : String(e));
    }
  }
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 250);
  };

  onMount(() => {
    load();
    onCleanup(subscribe(soon, load));
  });
  onCleanup(() => clearTimeout(timer));

  const count = (a: string) => (runs() ?? []).filter((r) => attentionOf(r) === a).length;
  const sub = () => {
    const parts = [count("blocked") && `${count("blocked")} blocked`, count("your_turn") && `${count("your_turn")} your turn`].filter(Boolean) as string[];
    if (parts.length === 0) return undefined;
    return parts.map((p, i) => (
      <>
        {i > 0 ? " · " : ""}
        <span class="nw">{p}</span>
      </>
    ));
  };

  return (
    <div class="screen">
      <Header title="Runs" sub={sub()} conn={!props.selected}>
        <a class="btn" href="/history" onClick={linkHandler}>
          History
        </a>
        <a class="btn" href="/attach" onClick={linkHandler} data-action="open-attach">
          Attach
        </a>
        <a class="btn primary" href="/new" onClick={linkHandler}>
          New
        </a>
      </Header>
      <main class="scroll list">
        {/* Out of touch: the banner under the header says so once. */}
        <Show when={error() && !(isOffline(lastError) && !connected())}>
          <div class="notice error" role="alert" data-list-error>
            <span class="grow">{error()}</span>
            <button class="btn" onClick={load}>
              Retry
            </button>
          </div>
        </Show>
        <For each={down()}>
          {(m) => (
            <div class={`notice machine-down ${m.status}`} role="status" data-machine-down={m.name}>
              <span class="grow">
                <strong>{m.name}</strong> {machineNote(m)}
              </span>
            </div>
          )}
        </For>
        <Show when={runs()} fallback={<Show when={!error()}>{<p class="muted pad">Loading…</p>}</Show>}>
          <Show when={runs()!.length > 0} fallback={<EmptyRuns />}>
            <ul class="rows">
              <For each={runs()}>
                {(r) => (
                  <li>
                    <RunRow run={r} selected={r.id === props.selected} machine={manyMachines()} stale={stale().has(r.id) || !connected()} />
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </Show>
        <Show when={runs()}>{(list) => <RunsHousekeeping runs={list()} onChanged={load} />}</Show>
        <a class="link settings-link" href="/settings" onClick={linkHandler} data-action="settings">
          Notifications on this device…
        </a>
        <a class="link settings-link" href="/settings#machines" onClick={linkHandler} data-action="machines">
          Other machines…
        </a>
        <button
          class="link signout"
          data-action="logout"
          onClick={async () => {
            await api.logout().catch(() => {});
            stopEvents();
            location.assign("/");
          }}
        >
          Sign out
        </button>
      </main>
    </div>
  );
}
