// Starting a run: a directory (recent ones offered), the first prompt, the
// model and the permission mode.

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type Scenario } from "../api";
import { DemoScenarios } from "../components/DemoScenarios";
import { Header } from "../components/Header";
import { recentDirs } from "../lib/format";
import { navigate } from "../router";

const modes = [
  { value: "", label: "Default" },
  { value: "auto", label: "Auto" },
  { value: "default", label: "Ask before edits" },
  { value: "acceptEdits", label: "Accept edits" },
  { value: "plan", label: "Plan first" },
];

export function NewRun() {
  const [cwd, setCwd] = createSignal("");
  const [prompt, setPrompt] = createSignal("");
  const [model, setModel] = createSignal("");
  const [mode, setMode] = createSignal("");
  const [recent, setRecent] = createSignal<string[]>([]);
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(false);

  onMount(async () => {
    try {
      const [runs, sessions] = await Promise.all([api.runs(), api.sessions("", 50, 0).then((s) => s.sessions ?? []).catch(() => [])]);
      const dirs = recentDirs(runs, sessions);
      setRecent(dirs);
      if (!cwd() && dirs[0]) setCwd(dirs[0]);
    } catch {
      /* the form works without suggestions */
    }
  });

  /** pickScenario puts a demo keyword at the start of the prompt. */
  function pickScenario(sc: Scenario) {
    const rest = prompt().replace(/\blab:[a-z0-9]+\b\s*/g, "").trim();
    setPrompt(rest ? `${sc.keyword} ${rest}` : `${sc.keyword} `);
    // "manual" is what this list offers as "default" (its older name).
    const want = sc.permission_mode === "manual" ? "default" : sc.permission_mode;
    if (want && modes.some((m) => m.value === want)) setMode(want);
  }

  async function submit(e: Event) {
    e.preventDefault();
    if (busy()) return;
    setBusy(true);
    setError("");
    try {
      const run = await api.startRun({
        cwd: cwd().trim(),
        prompt: prompt().trim() || undefined,
        model: model().trim() || undefined,
        permission_mode: mode() || undefined,
      });
      navigate(`/runs/${encodeURIComponent(run.id)}`, true);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="screen">
      <Header title="New run" back="/" />
      <main class="scroll">
        <form
          class="form"
          onSubmit={submit}
          onKeyDown={(e) => {
            // Ctrl+Enter (Cmd+Enter on a Mac) starts the run from any field.
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.isComposing) void submit(e);
          }}
        >
          <label>
            Directory
            <input name="cwd" value={cwd()} onInput={(e) => setCwd(e.currentTarget.value)} placeholder="/home/me/project" required autocapitalize="off" spellcheck={false} />
          </label>
          <Show when={recent().length > 0}>
            <div class="chips" role="list" aria-label="Recent directories">
              <For each={recent()}>
                {(d) => (
                  <button type="button" class={`chip${d === cwd() ? " on" : ""}`} onClick={() => setCwd(d)} role="listitem">
                    {d}
                  </button>
                )}
              </For>
            </div>
          </Show>
          <label>
            First prompt
            <textarea name="prompt" rows={5} value={prompt()} onInput={(e) => setPrompt(e.currentTarget.value)} placeholder="What should Claude do?" />
          </label>
          <DemoScenarios onPick={pickScenario} />
          <label>
            Model
            <input name="model" value={model()} onInput={(e) => setModel(e.currentTarget.value)} placeholder="default" autocapitalize="off" spellcheck={false} />
          </label>
          <label>
            Permission mode
            <select name="permission_mode" value={mode()} onChange={(e) => setMode(e.currentTarget.value)}>
              <For each={modes}>{(m) => <option value={m.value}>{m.label}</option>}</For>
            </select>
          </label>
          <Show when={error()}>
            <p class="error" role="alert">
              {error()}
            </p>
          </Show>
          <button class="btn primary" type="submit" disabled={busy()} title="Start (Ctrl+Enter)">
            Start
          </button>
        </form>
      </main>
    </div>
  );
}
