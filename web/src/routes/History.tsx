// History: every session on the machine (on a hub, on every machine, each
// labelled), newest first, searchable by folder, title and what was said; each opens as a read-only chat (with
// Resume), or as the live run that follows it now. The search lives in the
// address, so going back from a session keeps it.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, type Session } from "../api";
import { Header } from "../components/Header";
import { sessionLine } from "../lib/heading";
import { rememberHistory } from "../lib/lastsearch";
import { linkHandler } from "../router";
import "../styles/machines.css";
import { manyProviders, providerLabel } from "../providers";
import { manyMachines, setMachines } from "../machines";
import { Alert } from "../components/Alert";

const pageSize = 50;

export function History() {
  const [q, setQ] = createSignal(new URLSearchParams(location.search).get("q") ?? "");
  const [items, setItems] = createSignal<Session[] | null>(null);
  const [next, setNext] = createSignal<number | undefined>(undefined);
  const [error, setError] = createSignal("");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  async function load(offset: number) {
    const gen = ++generation;
    try {
      const r = await api.sessions(q().trim(), pageSize, offset);
      if (gen !== generation) return; // a newer search superseded this one
      const got = r.sessions ?? [];
      setMachines(r.machines);
      setItems(offset === 0 ? got : [...(items() ?? []), ...got]);
      setNext(r.has_more && got.length > 0 ? offset + got.length : undefined);
      setError("");
    } catch (e) {
      if (gen === generation) setError(e instanceof Error ? e.message : String(e));
    }
  }

  onMount(() => {
    rememberHistory(location.pathname + location.search);
    load(0);
  });
  onCleanup(() => clearTimeout(timer));

  function onSearch(v: string) {
    setQ(v);
    const path = v ? `/history?q=${encodeURIComponent(v)}` : "/history";
    history.replaceState(null, "", path);
    rememberHistory(path);
    clearTimeout(timer);
    timer = setTimeout(() => load(0), 250);
  }

  return (
    <div class="screen">
      <Header title="History" back="/" />
      <div class="searchbar">
        <input type="search" name="q" placeholder="Search folders, titles and conversations" value={q()} onInput={(e) => onSearch(e.currentTarget.value)} autocapitalize="off" />
      </div>
      <main class="scroll list">
        <Alert error={error()} />
        <Show when={items()} fallback={<p class="muted pad">Loading…</p>}>
          <Show when={items()!.length > 0} fallback={<p class="muted pad">No sessions found.</p>}>
            <ul class="rows">
              <For each={items()}>
                {(s) => (
                  <li>
                    <a
                      class="row"
                      href={s.run_live && s.run_id ? `/runs/${encodeURIComponent(s.run_id)}` : `/history/${encodeURIComponent(s.id)}`}
                      onClick={linkHandler}
                      data-session={s.id}
                    >
                      <div class="row-main">
                        <div class="row-title">{s.title || "(no prompt)"}</div>
                        <div class="row-sub muted">{sessionLine(s)}</div>
                      </div>
                      <Show when={manyMachines() && s.machine}>
                        <span class="tag machine" data-machine={s.machine}>
                          {s.machine}
                        </span>
                      </Show>
                      <Show when={manyProviders() && s.provider}>
                        <span class="tag provider" data-provider={s.provider}>
                          {providerLabel(s.provider)}
                        </span>
                      </Show>
                      <Show when={s.run_live}>
                        <span class="tag live" data-live-run={s.run_id}>
                          live
                        </span>
                      </Show>
                    </a>
                  </li>
                )}
              </For>
            </ul>
            <Show when={next() !== undefined}>
              <button class="btn wide" onClick={() => load(next()!)}>
                More
              </button>
            </Show>
          </Show>
        </Show>
      </main>
    </div>
  );
}
