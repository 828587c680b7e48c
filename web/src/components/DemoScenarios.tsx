// On a demo server, the scripted model's keywords as chips under the
// prompt, those of the chosen provider: a tap adds the keyword to the
// prompt (and picks the permission mode the scenario needs). They fold
// under one line, so Start stays on a phone's first screen. On a real
// server the list is empty and nothing shows.

import { createEffect, createSignal, For, on, Show } from "solid-js";
import { api, type Scenario } from "../api";

export function DemoScenarios(props: { provider: string; machine?: string; onPick: (s: Scenario) => void }) {
  const [list, setList] = createSignal<Scenario[]>([]);
  // The chosen machine's scenarios (a peer may be a demo or not).
  createEffect(
    on(
      () => props.machine,
      async (machine) => {
        try {
          const got = await api.scenarios(machine);
          if (props.machine === machine) setList(got);
        } catch {
          if (props.machine === machine) setList([]); /* not a demo (404), or offline: no chips */
        }
      },
    ),
  );
  /** The chosen provider's scenarios ("" while the providers are not known: the first provider's). */
  const shown = () => {
    const all = list();
    const p = props.provider || all[0]?.provider;
    return all.filter((s) => !s.provider || s.provider === p);
  };
  return (
    <Show when={shown().length > 0}>
      <details class="scenarios" data-testid="scenarios">
        <summary class="small muted">Demo keywords ({shown().length}): a keyword in the prompt picks what the scripted model does</summary>
        <div class="chips" role="list" aria-label="Demo scenarios">
          <For each={shown()}>
            {(s) => (
              <button type="button" class="chip" role="listitem" title={s.summary} onClick={() => props.onPick(s)} data-keyword={s.keyword}>
                {s.keyword}
              </button>
            )}
          </For>
        </div>
      </details>
    </Show>
  );
}
