// Starting a run: the agent CLI (a choice of tiles when the server runs
// more than one), a folder (picked with suggestions, recent ones first),
// the first prompt, the model and the permission mode, each mode explained
// in a line. Everything a provider offers comes from the server.

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type ProviderInfo, type Scenario } from "../api";
import { AttachButton, AttachChips, createAttachments } from "../components/ComposerAttach";
import { DemoScenarios } from "../components/DemoScenarios";
import { FolderPicker } from "../components/FolderPicker";
import { Header } from "../components/Header";
import { recentDirs } from "../lib/format";
import { loadProviders } from "../providers";
import { navigate } from "../router";

/** Used until the server lists its providers (or when it cannot): the server's default provider, its modes unknown. */
const unknownProvider: ProviderInfo = { name: "", label: "", modes: [] };

/** lastCwdKey keeps the folder of the last run started here, for the next one. */
const lastCwdKey = "lab.new.cwd";

/** defaultModeOf says which mode a provider's runs start in unless another is chosen. */
function defaultModeOf(p: ProviderInfo): string {
  const m = p.modes.find((x) => x.value === p.default_mode);
  return m ? `starts in ${m.label}` : "\u00a0";
}

export function NewRun() {
  const [cwd, setCwd] = createSignal("");
  const [prompt, setPrompt] = createSignal("");
  const [model, setModel] = createSignal("");
  const [mode, setMode] = createSignal("");
  const [worktree, setWorktree] = createSignal(false);
  const [providers, setProviders] = createSignal<ProviderInfo[]>([]);
  const [provider, setProvider] = createSignal("");
  const current = () => providers().find((p) => p.name === provider()) ?? providers()[0] ?? unknownProvider;
  const modes = () => current().modes;
  /** listedDefault is the provider's default mode when it is one of its modes: then the list names it once, as itself. */
  const listedDefault = () => modes().find((m) => m.value === current().default_mode)?.value ?? "";
  const shownMode = () => mode() || listedDefault();
  const modeHelp = () => (shownMode() === "" ? "the CLI's own default" : (modes().find((m) => m.value === shownMode())?.help ?? ""));
  /** needsPrompt: this provider's runs start with their first prompt. */
  const needsPrompt = () => !current().prompt_optional && prompt().trim() === "";
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  // Photos and files for the first prompt, staged until the run starts.
  const att = createAttachments((f) => api.upload(null, f, f.name));

  onMount(async () => {
    loadProviders()
      .then((ps) => {
        setProviders(ps);
        if (!provider() && ps[0]) setProvider(ps[0].name);
      })
      .catch(() => {
        /* the server's default provider and its default mode still work */
      });
    // The folder of the last run started here, else the most recent one.
    const last = remembered();
    if (last) {
      setCwd(last);
      return;
    }
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
    if (busy() || needsPrompt() || att.uploading()) return;
    setBusy(true);
    setError("");
    try {
      const run = await api.startRun({
        cwd: cwd().trim(),
        prompt: prompt().trim() || undefined,
        model: model().trim() || undefined,
        permission_mode: mode() || undefined,
        provider: current().name || undefined,
        worktree: worktree() || undefined,
        uploads: att.ids().length ? att.ids() : undefined,
      });
      att.clear();
      remember(cwd().trim());
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
          <Show when={providers().length > 1}>
            <fieldset class="providers" data-testid="providers">
              <legend>Agent</legend>
              <div class="provider-tiles" role="radiogroup" aria-label="Agent">
                <For each={providers()}>
                  {(p) => (
                    <label class={`provider-tile${p.name === current().name ? " chosen" : ""}`} data-provider={p.name}>
                      <input
                        type="radio"
                        name="provider"
                        value={p.name}
                        checked={p.name === current().name}
                        onChange={() => {
                          setProvider(p.name);
                          setMode("");
                        }}
                      />
                      <span class="provider-name">{p.label}</span>
                      <span class="muted small">{defaultModeOf(p)}</span>
                    </label>
                  )}
                </For>
              </div>
            </fieldset>
          </Show>
          <FolderPicker value={cwd()} onChange={setCwd} />
          <label style={{ "flex-direction": "row", "align-items": "center", "min-height": "44px" }}>
            <input type="checkbox" name="worktree" checked={worktree()} onChange={(e) => setWorktree(e.currentTarget.checked)} />
            <span>
              Work in a new worktree
              <span class="muted small"> (git: a branch lab/… of its own)</span>
            </span>
          </label>
          <label>
            First prompt
            <textarea
              name="prompt"
              rows={5}
              value={prompt()}
              onInput={(e) => setPrompt(e.currentTarget.value)}
              onPaste={(e) => att.paste(e)}
              onDrop={(e) => att.drop(e)}
              placeholder="What should the agent do?"
            />
          </label>
          <Show when={current().attachments}>
            <div class="first-attach" data-testid="first-attach">
              <AttachButton att={att} disabled={busy()} />
              <span class="muted small">Photos or files for the first prompt</span>
            </div>
            <AttachChips att={att} />
          </Show>
          <DemoScenarios provider={current().name} onPick={pickScenario} />
          <label>
            Model
            <input name="model" value={model()} onInput={(e) => setModel(e.currentTarget.value)} placeholder="default" autocapitalize="off" spellcheck={false} />
          </label>
          <label>
            Permission mode
            <select name="permission_mode" value={shownMode()} onChange={(e) => setMode(e.currentTarget.value)}>
              <Show when={!listedDefault()}>
                <option value="">Default</option>
              </Show>
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
          <button class="btn primary" type="submit" disabled={busy() || needsPrompt() || att.uploading()} title="Start (Ctrl+Enter)">
            Start
          </button>
          <Show when={needsPrompt()}>
            <p class="muted small" data-needs-prompt>
              {current().label || "This agent"} starts with a first prompt: write one above.
            </p>
          </Show>
        </form>
      </main>
    </div>
  );
}

function remembered(): string {
  try {
    return localStorage.getItem(lastCwdKey) ?? "";
  } catch {
    return "";
  }
}

function remember(dir: string): void {
  try {
    if (dir) localStorage.setItem(lastCwdKey, dir);
  } catch {
    /* private mode: the recent folders still come first */
  }
}
