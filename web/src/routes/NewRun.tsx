// Starting a run: the machine (on a hub with peers), the agent CLI (a
// choice of tiles when the machine runs more than one), a folder (picked
// with suggestions, recent ones first), the first prompt, the model and the
// permission mode, each mode explained in a line. Everything a provider
// offers comes from the chosen machine.

import { createSignal, For, onMount, Show } from "solid-js";
import { api, type Machine, type ProviderInfo, type Run, type Scenario, type Session } from "../api";
import { AttachButton, AttachChips, createAttachments } from "../components/ComposerAttach";
import { DemoScenarios } from "../components/DemoScenarios";
import { FolderPicker } from "../components/FolderPicker";
import { Header } from "../components/Header";
import { recentDirs } from "../lib/format";
import { isDown } from "../lib/machines";
import { loadMachines } from "../machines";
import { loadProviders } from "../providers";
import "../styles/machines.css";
import { navigate } from "../router";
import { Alert } from "../components/Alert";

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
  const [machineList, setMachineList] = createSignal<Machine[]>([]);
  const [machine, setMachine] = createSignal("");
  const [cwdTyped, setCwdTyped] = createSignal(false);
  let known: { runs: Run[]; sessions: Session[] } = { runs: [], sessions: [] };
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

  /** local says the chosen machine is this lab (or none was chosen). */
  const local = () => isLocal(machine());
  /** isLocal says a machine name is this lab: none chosen yet ("") or the list's local one. */
  const isLocal = (name: string) => !name || !!machineList().find((m) => m.name === name)?.local;
  /** sameMachine: "" (before the list arrived) and this lab's own name are one machine. */
  const sameMachine = (a: string, b: string) => a === b || (isLocal(a) && isLocal(b));

  /** useMachine loads what the machine offers: its providers, and its recent folder. */
  function useMachine(name: string) {
    setMachine(name);
    setProviders([]);
    setProvider("");
    setMode("");
    const isLocal = local();
    (isLocal ? loadProviders() : api.providers(name))
      .then((ps) => {
        // The list naming this lab meanwhile is no change of machine.
        if (!sameMachine(machine(), name)) return;
        setProviders(ps);
        if (ps[0]) setProvider(ps[0].name);
      })
      .catch(() => {
        /* the machine's default provider and its default mode still work */
      });
    if (!cwdTyped()) {
      // The folder of the last run started on this machine, else its most recent one.
      const last = remembered(isLocal ? "" : name);
      // This lab's ids never hold "~"; a peer's are "<machine>~<id>".
      const mine = <T extends { id: string; machine?: string }>(xs: T[]) => xs.filter((x) => (isLocal ? !x.id.includes("~") : x.machine === name));
      setCwd(last || (recentDirs(mine(known.runs), mine(known.sessions))[0] ?? ""));
    }
  }

  onMount(async () => {
    loadMachines()
      .then((ms) => {
        setMachineList(ms);
        if (!machine() && ms[0]) setMachine(ms[0].name);
      })
      .catch(() => {
        /* this lab alone */
      });
    useMachine(machine());
    try {
      const [runs, sessions] = await Promise.all([api.runs(), api.sessions("", 50, 0).then((s) => s.sessions ?? []).catch(() => [])]);
      known = { runs, sessions };
      if (!cwdTyped()) useMachine(machine());
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
        machine: local() ? undefined : machine(),
        uploads: att.ids().length ? att.ids() : undefined,
      });
      att.clear();
      remember(local() ? "" : machine(), cwd().trim());
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
          <Show when={machineList().length > 1}>
            <fieldset class="providers" data-testid="machines">
              <legend>Machine</legend>
              <div class="machine-tiles" role="radiogroup" aria-label="Machine">
                <For each={machineList()}>
                  {(m) => (
                    <label class="machine-tile" classList={{ chosen: m.name === machine(), down: isDown(m) }} data-machine={m.name}>
                      <input type="radio" name="machine" value={m.name} checked={m.name === machine()} onChange={() => useMachine(m.name)} />
                      <span>{m.name}</span>
                      <Show when={m.local}>
                        <span class="muted small">this lab</span>
                      </Show>
                      <Show when={isDown(m)}>
                        <span class="muted small">{m.status}</span>
                      </Show>
                    </label>
                  )}
                </For>
              </div>
            </fieldset>
          </Show>
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
                    <FolderPicker
            value={cwd()}
            machine={local() ? undefined : machine()}
            onChange={(v) => {
              setCwdTyped(true);
              setCwd(v);
            }}
          />
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
          {/* Files are staged on this lab: a run on another machine takes them with a reply. */}
          <Show when={current().attachments && local()}>
            <div class="first-attach" data-testid="first-attach">
              <AttachButton att={att} disabled={busy()} />
              <span class="muted small">Photos or files for the first prompt</span>
            </div>
            <AttachChips att={att} />
          </Show>
          <DemoScenarios provider={current().name} machine={local() ? undefined : machine()} onPick={pickScenario} />
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
          <Alert error={error()} />
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

/** remembered is the folder of the last run started here on machine ("" for this lab). */
function remembered(machine: string): string {
  try {
    return localStorage.getItem(machine ? `${lastCwdKey}.${machine}` : lastCwdKey) ?? "";
  } catch {
    return "";
  }
}

function remember(machine: string, dir: string): void {
  try {
    if (dir) localStorage.setItem(machine ? `${lastCwdKey}.${machine}` : lastCwdKey, dir);
  } catch {
    /* private mode: the recent folders still come first */
  }
}
