// Starting a run: a folder (picked with suggestions, recent ones first), the
// first prompt, the agent CLI (when the server runs more than one), the
// model and the permission mode, each mode explained in a line.

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type ProviderInfo, type Scenario } from "../api";
import { DemoScenarios } from "../components/DemoScenarios";
import { FolderPicker } from "../components/FolderPicker";
import { Header } from "../components/Header";
import { recentDirs } from "../lib/format";
import { navigate } from "../router";

/** Used until the server lists its providers (or when it cannot). */
const fallbackProvider: ProviderInfo = {
  name: "",
  label: "Claude Code",
  modes: [
    { value: "auto", label: "Auto", help: "the CLI decides which actions need your approval" },
    { value: "manual", label: "Manual", help: "asks before running commands and editing files" },
    { value: "acceptEdits", label: "Accept edits", help: "edits files without asking; asks before commands" },
    { value: "plan", label: "Plan first", help: "plans first, then asks you to approve the plan" },
  ],
};

export function NewRun() {
  const [cwd, setCwd] = createSignal("");
  const [prompt, setPrompt] = createSignal("");
  const [model, setModel] = createSignal("");
  const [mode, setMode] = createSignal("");
  const [providers, setProviders] = createSignal<ProviderInfo[]>([]);
  const [provider, setProvider] = createSignal("");
  const current = () => providers().find((p) => p.name === provider()) ?? providers()[0] ?? fallbackProvider;
  const modes = () => current().modes;
  const modeHelp = () =>
    mode() === "" ? `the CLI's own default${current().default_mode ? ` (${current().default_mode})` : ""}` : (modes().find((m) => m.value === mode())?.help ?? "");
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(false);

  onMount(async () => {
    api
      .providers()
      .then((ps) => {
        setProviders(ps);
        if (!provider() && ps[0]) setProvider(ps[0].name);
      })
      .catch(() => {
        /* the fallback list works for Claude Code */
      });
    try {
      const [runs, sessions] = await Promise.all([api.runs(), api.sessions("", 50, 0).then((s) => s.sessions ?? []).catch(() => [])]);
      const dirs = recentDirs(runs, sessions);
      if (!cwd() && dirs[0]) setCwd(dirs[0]);
    } catch {
      /* the form works without suggestions */
    }
  });

  /** pickScenario puts a demo keyword at the start of the prompt. */
  function pickScenario(sc: Scenario) {
    const rest = prompt().replace(/\blab:[a-z0-9]+\b\s*/g, "").trim();
    setPrompt(rest ? `${sc.keyword} ${rest}` : `${sc.keyword} `);
    const want = sc.permission_mode;
    if (want && modes().some((m) => m.value === want)) setMode(want);
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
        provider: current().name || undefined,
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
          <FolderPicker value={cwd()} onChange={setCwd} />
          <label>
            First prompt
            <textarea name="prompt" rows={5} value={prompt()} onInput={(e) => setPrompt(e.currentTarget.value)} placeholder="What should Claude do?" />
          </label>
          <DemoScenarios onPick={pickScenario} />
          <label>
            Model
            <input name="model" value={model()} onInput={(e) => setModel(e.currentTarget.value)} placeholder="default" autocapitalize="off" spellcheck={false} />
          </label>
          <Show when={providers().length > 1}>
            <label>
              Agent
              <select
                name="provider"
                value={provider()}
                onChange={(e) => {
                  setProvider(e.currentTarget.value);
                  setMode("");
                }}
              >
                <For each={providers()}>{(p) => <option value={p.name}>{p.label}</option>}</For>
              </select>
            </label>
          </Show>
          <label>
            Permission mode
            <select name="permission_mode" value={mode()} onChange={(e) => setMode(e.currentTarget.value)}>
              <option value="">Default</option>
              <For each={modes()}>{(m) => <option value={m.value}>{m.label}</option>}</For>
            </select>
            <span class="muted small" data-mode-help>
              {modeHelp()}
            </span>
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
