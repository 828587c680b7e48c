// Starting a run: a folder (picked with suggestions, recent ones first), the first prompt, the
// model and the permission mode.

import { createSignal, For, onMount, Show } from "solid-js";
import { api } from "../api";
import { FolderPicker } from "../components/FolderPicker";
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
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(false);

  onMount(async () => {
    try {
      const [runs, sessions] = await Promise.all([api.runs(), api.sessions("", 50, 0).then((s) => s.sessions ?? []).catch(() => [])]);
      const dirs = recentDirs(runs, sessions);
      if (!cwd() && dirs[0]) setCwd(dirs[0]);
    } catch {
      /* the form works without suggestions */
    }
  });

  async function submit(e: SubmitEvent) {
    e.preventDefault();
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
        <form class="form" onSubmit={submit}>
          <FolderPicker value={cwd()} onChange={setCwd} />
          <label>
            First prompt
            <textarea name="prompt" rows={5} value={prompt()} onInput={(e) => setPrompt(e.currentTarget.value)} placeholder="What should Claude do?" />
          </label>
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
          <button class="btn primary" type="submit" disabled={busy()}>
            Start
          </button>
        </form>
      </main>
    </div>
  );
}
