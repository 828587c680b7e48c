// The chat of a live run: header with state and Stop (confirmed), the chat
// pane, and the composer whose shape follows the conversation's state.

import { createSignal, onCleanup, onMount, Show } from "solid-js";
import { api, type Run } from "../api";
import { ChatPane } from "../components/ChatPane";
import { CliNote } from "../components/CliVersion";
import { Composer } from "../components/Composer";
import { createConversation } from "../components/conversation";
import { Header } from "../components/Header";
import { StateBadge } from "../components/StateBadge";
import { subscribe } from "../events";
import { baseName, cliVersion } from "../lib/format";

export function RunChat(props: { id: string }) {
  const conv = createConversation({ runId: props.id, fetch: (q) => api.runMessages(props.id, q) });
  const [run, setRun] = createSignal<Run | null>(null);
  const [confirming, setConfirming] = createSignal(false);
  const [stopError, setStopError] = createSignal("");
  let showCard = () => {};

  async function loadRun() {
    try {
      setRun((await api.runs()).find((r) => r.id === props.id) ?? null);
    } catch {
      /* the chat still works */
    }
  }
  onMount(() => {
    loadRun();
    onCleanup(subscribe((e) => e.type === "run.changed" && e.run_id === props.id && loadRun(), loadRun));
  });

  const state = () => conv.state() ?? run()?.state ?? null;

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

  return (
    <div class="screen chat-screen">
      <Header title={run()?.title || "Run"} back="/" sub={run() ? [baseName(run()!.cwd), cliVersion(run()!)?.label].filter(Boolean).join(" · ") : undefined}>
        <Show when={state()}>
          <StateBadge state={state()!} />
        </Show>
        <Show when={state() !== "ended"}>
          <button class="btn danger" onClick={() => setConfirming(!confirming())} aria-expanded={confirming()} data-action="stop">
            Stop
          </button>
        </Show>
      </Header>
      <CliNote run={run()} />
      <Show when={confirming()}>
        <div class="confirm" role="alertdialog" aria-label="Stop this run?">
          <span class="grow">Stop this run? The Claude Code process will be ended.</span>
          <button class="btn" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button class="btn danger" onClick={stop} data-action="confirm-stop">
            Stop run
          </button>
        </div>
      </Show>
      <Show when={stopError() || conv.error()}>
        <p class="error banner" role="alert">
          {stopError() || conv.error()}
        </p>
      </Show>
      <ChatPane conv={conv} readOnly={false} onAnswer={(a) => api.answer(props.id, a).then(() => undefined)} bindShowCard={(fn) => (showCard = fn)} />
      <Composer
        state={state()}
        pending={!!conv.pending()}
        onReply={async (t) => {
          await api.reply(props.id, t);
          conv.refresh();
        }}
        onInterrupt={async () => {
          await api.interrupt(props.id);
          conv.refresh();
        }}
        onShowCard={() => showCard()}
      />
    </div>
  );
}
