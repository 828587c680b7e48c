// What the runs list says before there is any run: start one with New,
// and on a demo server, that a keyword in the prompt picks what the
// scripted model does (with a few of them, and where to find the rest).

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type Scenario } from "../api";
import { linkHandler } from "../router";

export function EmptyRuns() {
  const [demo, setDemo] = createSignal<Scenario[]>([]);
  onMount(async () => {
    try {
      setDemo(await api.scenarios());
    } catch {
      /* not a demo (404), or offline */
    }
  });
  return (
    <div class="notice" data-testid="no-runs">
      <p>No runs yet. Start one with New.</p>
      <Show when={demo().length > 0}>
        <p data-demo-hint>
          This lab is a demo: its scripted models play what a keyword in the prompt asks for, such as{" "}
          <For each={demo().slice(0, 3)}>
            {(s, i) => (
              <>
                {i() > 0 ? ", " : ""}
                <code>{s.keyword}</code> ({s.summary})
              </>
            )}
          </For>
          . The New run screen lists all {demo().length}.
        </p>
        <a class="btn primary" href="/new" onClick={linkHandler}>
          New run
        </a>
      </Show>
    </div>
  );
}
