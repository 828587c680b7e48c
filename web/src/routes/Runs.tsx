// The runs list: every run with a live state badge, the ones that need the
// operator first and marked, refreshed on every run event.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, isOffline, type Run } from "../api";
import { Header } from "../components/Header";
import { CliBadge } from "../components/CliVersion";
import { RunsHousekeeping } from "../components/RunsHousekeeping";
import { StateBadge } from "../components/StateBadge";
import { ago, baseName, cliVersion, needsYou, sortRuns } from "../lib/format";
import { stopEvents, subscribe } from "../events";
import { linkHandler } from "../router";

export function Runs() {
  const [runs, setRuns] = createSignal<Run[] | null>(null);
  const [error, setError] = createSignal("");
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function load() {
    try {
      setRuns(sortRuns(await api.runs()));
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

  const waiting = () => (runs() ?? []).filter(needsYou).length;

  return (
    <div class="screen">
      <Header title="Runs" sub={waiting() ? `${waiting()} need${waiting() === 1 ? "s" : ""} you` : undefined}>
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
          <Show when={runs()!.length > 0} fallback={<p class="muted pad">No runs yet. Start one with New.</p>}>
            <ul class="rows">
              <For each={runs()}>
                {(r) => (
                  <li>
                    <a class={`row${needsYou(r) ? " needs-you" : ""}`} href={`/runs/${encodeURIComponent(r.id)}`} onClick={linkHandler} data-run={r.id}>
                      <div class="row-main">
                        <div class="row-title">{r.title || baseName(r.cwd)}</div>
                        <div class="row-sub muted">
                          {baseName(r.cwd)} · {ago(r.started_at)}
                          <Show when={cliVersion(r)}>{(v) => ` · ${v().label}`}</Show>
                        </div>
                      </div>
                      <div class="row-side">
                        <CliBadge run={r} />
                        <Show when={needsYou(r)}>
                          <span class="needs-dot" aria-label="needs you">
                            ●
                          </span>
                        </Show>
                        <StateBadge state={r.state} />
                      </div>
                    </a>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </Show>
        <Show when={runs()}>{(list) => <RunsHousekeeping runs={list()} onChanged={load} />}</Show>
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
