// On a demo server, the scripted model's keywords as chips under the
// prompt: a tap adds the keyword to the prompt (and picks the permission
// mode the scenario needs). On a real server the list is empty and
// nothing shows.

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type Scenario } from "../api";

export function DemoScenarios(props: { onPick: (s: Scenario) => void }) {
  const [list, setList] = createSignal<Scenario[]>([]);
  onMount(async () => {
    try {
      setList(await api.scenarios());
    } catch {
      /* not a demo (404), or offline: no chips */
    }
  });
  return (
    <Show when={list().length > 0}>
      <div class="scenarios" data-testid="scenarios">
        <div class="small muted">Demo: a keyword in the prompt picks what the scripted model does.</div>
        <div class="chips" role="list" aria-label="Demo scenarios">
          <For each={list()}>
            {(s) => (
              <button type="button" class="chip" role="listitem" title={s.summary} onClick={() => props.onPick(s)} data-keyword={s.keyword}>
                {s.keyword}
              </button>
            )}
          </For>
        </div>
      </div>
    </Show>
  );
}
