// The chat of a live run: header with state and Stop (confirmed), the chat
// pane, and the composer whose shape follows the conversation's state. A
// run id that does not exist shows not found instead.

import { createSignal, Match, onCleanup, onMount, Show, Switch } from "solid-js";
import { api, type Dialog, type Run } from "../api";
import { changesSheet, loadChangesSheet } from "../changes/lazy";
import { AttachmentsOf } from "../components/Attachments";
import { ChatPane } from "../components/ChatPane";
import { CliNote } from "../components/CliVersion";
import { Composer } from "../components/Composer";
import { createConversation } from "../components/conversation";
import { Header } from "../components/Header";
import { LiveTail } from "../components/LiveTail";
import { MeterBadge, MeterPanel } from "../components/Meter";
import { NotFound } from "../components/NotFound";
import { createReplyQueue } from "../components/queue";
import { EndedBar, ReadOnlyBar } from "../components/RunBars";
import { RunFolder } from "../components/runfolder";
import { AttentionBadge } from "../components/RunRow";
import { connected, subscribe } from "../events";
import { onSent, outbox, sendAnswer, sendReply as send } from "../outbox";
import { cliVersion } from "../lib/format";
import { runHeading } from "../lib/heading";
import { lastSeq } from "../lib/merge";
import { providerInfo, providerLabel } from "../providers";
import { trackSeen } from "../seen";
import { manyMachines } from "../machines";
import { loadTerminalSheet, terminalSheet } from "../terminal/lazy";
import { loadSettingsSheet, loadSlashMenu, runCommands, settingsSheet } from "../steer/lazy";
import { SettingsStrip } from "../steer/strip";


/** about is what a dialog asks, in a few words, for messages about its answer. */
function about(d: Dialog | null): string {
  if (!d) return "";
  if (d.kind === "plan") return "the plan";
  if (d.kind === "permission") return d.permission?.title || d.permission?.command || d.permission?.tool || "the permission prompt";
  return d.questions?.[0]?.question ?? "";
}

export function RunChat(props: { id: string }) {
  const conv = createConversation({ runId: props.id, fetch: (q) => api.runMessages(props.id, q) });
  const queue = createReplyQueue(conv);
  const [run, setRun] = createSignal<Run | null>(null);
  const [confirming, setConfirming] = createSignal(false);
  const [stopError, setStopError] = createSignal("");
  const [changes, setChanges] = createSignal(false);
  const [terminal, setTerminal] = createSignal(false);
  const [steering, setSteering] = createSignal(false);
  const commands = runCommands(props.id);
  const [meter, setMeter] = createSignal(false);
  let showCard = () => {};

  async function loadRun() {
    try {
      const find = (rs: Run[]) => rs.find((r) => r.id === props.id);
      setRun(find(await api.runs()) ?? find(await api.archivedRuns()) ?? null);
    } catch {
      /* the chat still works */
    }
  }
  onMount(() => {
    loadRun();
    onCleanup(subscribe((e) => e.type === "run.changed" && e.run_id === props.id && loadRun(), loadRun));
    // A reply that waited for the connection went out: a bubble until the
    // transcript has it.
    onCleanup(
      onSent((run, text) => {
        if (run !== props.id) return;
        if (text.trim()) queue.add(text);
        conv.refresh();
      }),
    );
  });

  const state = () => conv.state() ?? run()?.state ?? null;
  /** stale: out of touch with lab (its stream down, or its reads failing), or not yet refetched since: what shows is the last known. */
  const stale = () => !connected() || !conv.fresh() || conv.offline();
  trackSeen(props.id, conv.state, () => lastSeq(conv.win()));
  const heading = () => runHeading(run());
  const attached = () => run()?.attached;
  /** hasTerminal: a live run lab started, or an attached one in a pane lab verified. */
  const hasTerminal = () => state() !== null && state() !== "ended" && !attached()?.read_only;
  function openTerminal() {
    setTerminal(true);
    loadTerminalSheet().catch(() => setStopError("Could not load the terminal view: is lab reachable?"));
  }
  const provider = () => providerInfo(run()?.provider);
  /** canSteer: a live run lab can type into, whose CLI can switch modes or models. */
  const canSteer = () => state() !== "ended" && !attached()?.read_only && !!(provider()?.switch_modes?.length || provider()?.models?.length);
  /** agent names the run's CLI for people. */
  const agent = () => providerLabel(run()?.provider) || "agent CLI";

  async function stop() {
    setStopError("");
    try {
      await api.stopRun(props.id);
      setConfirming(false);
      conv.reload();
      loadRun();
    } catch (e) {
      setStopError(e instanceof Error ? e.message : String(e));
    }
  }

  /**
   * sendReply sends the reply (and the uploads it names) through the
   * outbox: at once when in touch (a bubble until the transcript has it),
   * else it waits there, shown, and goes when the connection is back. A
   * refusal throws: the sender keeps the text and shows why.
   */
  async function sendReply(t: string, uploads?: string[]) {
    try {
      if ((await send(props.id, t, uploads)) === "sent" && t.trim()) queue.add(t);
    } finally {
      conv.refresh(); // also tells the banner when lab is unreachable
    }
  }

  /** cardNote says, under the card, when what shows may be old or an answer waits. */
  const cardNote = (toolId: string) => {
    if (outbox().some((i) => i.run === props.id && i.kind === "answer" && i.answer?.tool_id === toolId && i.status !== "failed"))
      return "Your answer waits for the connection: it is sent when lab is back, if this question still waits.";
    if (stale()) return "Out of touch with lab: this question may have been answered meanwhile. An answer waits and is sent only if it still waits.";
    return "";
  };

  const screen = () => (
    <div class="screen chat-screen" classList={{ stale: stale() }}>
      <Header
        title={heading().title}
        back="/"
        sub={
          <>
            <Show when={state()}>
              <AttentionBadge run={{ state: state()!, pending: !!conv.pending() }} />{" "}
            </Show>
            <Show when={manyMachines() && run()?.machine}>
              <span class="machine" data-machine={run()!.machine}>
                {run()!.machine}
              </span>{" "}
              ·{" "}
            </Show>
            <Show when={conv.usage()}>
              <MeterBadge usage={conv.usage()} open={meter()} onToggle={() => setMeter(!meter())} />
              {" "}
              ·{" "}
            </Show>
            <Show when={run()?.provider}>
              <span class="provider" data-provider={run()!.provider}>
                {providerLabel(run()!.provider)}
              </span>{" "}
              ·{" "}
            </Show>
            {heading().sub}
            <Show when={run() && cliVersion(run()!)}>
              {(v) => (
                <>
                  {" · "}
                  <span class="nw">{v().label}</span>
                </>
              )}
            </Show>
            {attached() ? ` · attached ${attached()!.pane ?? "read-only"}` : ""}
          </>
        }
      >
        <button
          class="btn glyph-btn"
          onClick={() => {
            setChanges(true);
            loadChangesSheet().catch(() => setStopError("Could not load the changes view: is lab reachable?"));
          }}
          aria-label="Changes"
          title="Changes"
          data-action="changes"
        >
          ±
        </button>
        <Show when={hasTerminal()}>
          <button class="btn glyph-btn" onClick={openTerminal} aria-label="Terminal" title="Terminal" data-action="terminal">
            &gt;_
          </button>
        </Show>
        <Show when={state() !== "ended"}>
          <button class="btn danger" onClick={() => setConfirming(!confirming())} aria-expanded={confirming()} data-action="stop">
            {attached() ? "Detach" : "Stop"}
          </button>
        </Show>
      </Header>
      <CliNote run={run()} />
      <Show when={canSteer()}>
        <SettingsStrip
          provider={provider()}
          settings={conv.settings()}
          onOpen={() => {
            setSteering(true);
            loadSettingsSheet().catch(() => setStopError("Could not load the mode and model switch: is lab reachable?"));
          }}
        />
      </Show>
      <MeterPanel usage={conv.usage()} open={meter()} runId={props.id} live={state() !== "ended"} />
      <Show when={run()?.worktree}>
        {(w) => (
          <div class="muted small" style={{ padding: "2px 16px", "border-bottom": "1px solid var(--line)", "overflow-wrap": "anywhere" }} data-branch-strip>
            ⎇ {w().branch}
            {w().removed_at ? " (worktree removed)" : ""}
          </div>
        )}
      </Show>
      <Show when={confirming()}>
        <div class="confirm" role="alertdialog" aria-label={attached() ? "Detach from this session?" : "Stop this run?"}>
          <span class="grow">
            {attached()
              ? `Detach? Lab stops following this session; its ${agent()} process (pid ${attached()!.pid}) keeps running.`
              : `Stop this run? Its ${agent()} process will be ended.`}
          </span>
          <button class="btn" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button class="btn danger" onClick={stop} data-action="confirm-stop">
            {attached() ? "Detach" : "Stop run"}
          </button>
        </div>
      </Show>
      <Show when={conv.alert()}>
        {(a) => (
          <div class={`alert banner lv-${a().level}`} role="alert" data-alert>
            {a().text}
            <Show when={hasTerminal()}>
              <button class="btn" onClick={openTerminal} data-action="alert-terminal">
                Open the terminal
              </button>
            </Show>
          </div>
        )}
      </Show>
      {/* Out of touch: one quiet banner says so, the connection's under the header or, while only the reads fail, this one. */}
      <Show when={stopError() || (conv.error() && !(conv.offline() && !connected()))}>
        <Show
          when={!stopError() && conv.offline()}
          fallback={
            <p class="error banner" role="alert" data-banner>
              {stopError() || conv.error()}
            </p>
          }
        >
          <p class="conn-banner" role="status" data-banner>
            <span class="spinner" aria-hidden="true" />
            <span>Offline: cannot reach the lab server. Retrying… this may be out of date.</span>
          </p>
        </Show>
      </Show>
      <RunFolder.Provider value={() => run()?.cwd}>
        <AttachmentsOf.Provider value={() => ({ kind: "runs", id: props.id })}>
          <ChatPane
            conv={conv}
            readOnly={false}
            onAnswer={(a) => sendAnswer(props.id, a, about(conv.pending()))}
            bindShowCard={(fn) => (showCard = fn)}
            cardNote={cardNote}
            footer={<LiveTail conv={conv} queue={queue} runId={props.id} stale={stale()} />}
          />
        </AttachmentsOf.Provider>
      </RunFolder.Provider>
      <Switch>
        <Match when={state() === "ended"}>
          <EndedBar run={run()} onChanged={loadRun} />
        </Match>
        <Match when={attached()?.read_only}>{(why) => <ReadOnlyBar reason={why()} />}</Match>
        <Match when={true}>
          <Composer
            state={state()}
            stale={stale()}
            pending={!!conv.pending()}
            onReply={sendReply}
            upload={(f) => api.upload(props.id, f, f.name)}
            attach={provider()?.attachments !== false}
            onInterrupt={async () => {
              await api.interrupt(props.id);
              conv.refresh();
            }}
            onShowCard={() => showCard()}
            slash={{
              commands: commands.list,
              prepare: () => {
                loadSlashMenu().catch(() => {});
                commands.load();
              },
              run: async (name, args) => {
                try {
                  await api.runCommand(props.id, name, args);
                } finally {
                  conv.refresh();
                }
              },
            }}
          />
        </Match>
      </Switch>
      <Show when={steering() && settingsSheet()}>
        {(sheet) => {
          const Sheet = sheet();
          const after = () => conv.refresh();
          return (
            <Sheet
              provider={provider()}
              settings={conv.settings()}
              state={state()}
              onMode={(m) => api.setMode(props.id, m).then(after)}
              onModel={(m) => api.setModel(props.id, m).then(after)}
              onClose={() => setSteering(false)}
            />
          );
        }}
      </Show>
      <Show when={changes() && changesSheet()}>
        {(sheet) => {
          const Sheet = sheet();
          return (
            <Sheet
              runId={props.id}
              run={run()}
              onReply={state() === "ended" || attached()?.read_only ? undefined : sendReply}
              onClose={() => setChanges(false)}
              onChanged={loadRun}
            />
          );
        }}
      </Show>
      <Show when={terminal() && terminalSheet()}>
        {(sheet) => {
          const Sheet = sheet();
          return <Sheet runId={props.id} title={heading().title} canType={!attached()?.read_only} onClose={() => setTerminal(false)} />;
        }}
      </Show>
    </div>
  );
  return (
    <Show when={!conv.notFound()} fallback={<NotFound what="run" id={props.id} back="/" backLabel="All runs" />}>
      {screen()}
    </Show>
  );
}
