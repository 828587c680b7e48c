// The runs list: every run with its attention level, blocked ones first,
// then your turn, working, idle and ended, each by last activity; refreshed
// on every run event.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, isOffline, type Run } from "../api";
import { EmptyRuns } from "../components/EmptyRuns";
import { Header } from "../components/Header";
import { RunRow } from "../components/RunRow";
import { RunsHousekeeping } from "../components/RunsHousekeeping";
import { attentionOf, byAttention } from "../lib/attention";
import { stopEvents, subscribe } from "../events";
import { linkHandler } from "../router";

/** Runs is the runs list; selected marks the run open beside it on a desktop. */
export function Runs(props: { selected?: string }) {
  const [runs, setRuns] = createSignal<Run[] | null>(null);
  const [error, setError] = createSignal("");
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function load() {
    try {
      setRuns(byAttention(await api.runs()));
      setError("");
    } catch (e) {
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
      <Header title="Runs" sub={sub()}>
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
        <Show when={error()}>
          <div class="notice error" role="alert" data-list-error>
            <span class="grow">{error()}</span>
            <button class="btn" onClick={load}>
              Retry
            </button>
          </div>
        </Show>
        <Show when={runs()} fallback={<Show when={!error()}>{<p class="muted pad">Loading…</p>}</Show>}>
          <Show when={runs()!.length > 0} fallback={<EmptyRuns />}>
            <ul class="rows">
              <For each={runs()}>
                {(r) => (
                  <li>
                    <RunRow run={r} selected={r.id === props.selected} />
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
