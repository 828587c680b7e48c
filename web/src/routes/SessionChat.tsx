// A session from history as a read-only chat: the same rendering as a run,
// no card, no composer. The header names the session by its first prompt;
// back returns to the history list with its search. Resume continues the
// session in a new run (in its folder); when a live run already follows
// it, the footer opens that run.

import { createSignal, onMount, Show } from "solid-js";
import { api, type Session } from "../api";
import { changesSheet, loadChangesSheet } from "../changes/lazy";
import { AttachmentsOf } from "../components/Attachments";
import { ChatPane } from "../components/ChatPane";
import { createConversation } from "../components/conversation";
import { Header } from "../components/Header";
import { MeterBadge, MeterPanel } from "../components/Meter";
import { NotFound } from "../components/NotFound";
import { sessionHeading } from "../lib/heading";
import { historyBack } from "../lib/lastsearch";
import { providerLabel } from "../providers";
import { linkHandler, navigate } from "../router";
import { Alert } from "../components/Alert";


export function SessionChat(props: { id: string }) {
  const conv = createConversation({ fetch: (q) => api.sessionMessages(props.id, q) });
  const [session, setSession] = createSignal<Session | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal("");
  const [changes, setChanges] = createSignal(false);
  const [meter, setMeter] = createSignal(false);
  onMount(async () => {
    try {
      setSession(await api.session(props.id));
    } catch {
      /* the chat still works; the header shows the id */
    }
  });
  const heading = () => sessionHeading(session(), props.id);

  async function resume() {
    setBusy(true);
    setError("");
    try {
      const run = await api.resumeSession(props.id);
      navigate(`/runs/${encodeURIComponent(run.id)}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Show when={!conv.notFound()} fallback={<NotFound what="session" id={props.id} back={historyBack()} backLabel="All sessions" />}>
      <div class="screen chat-screen">
        <Header
          title={heading().title}
          back={historyBack()}
          sub={
            <>
              <Show when={conv.usage()}>
                <MeterBadge usage={conv.usage()} open={meter()} onToggle={() => setMeter(!meter())} />
                {" · "}
              </Show>
              <Show when={session()?.provider}>
                <span class="provider" data-provider={session()!.provider}>
                  {providerLabel(session()!.provider)}
                </span>{" "}
                ·{" "}
              </Show>
              {heading().sub}
            </>
          }
        >
          <button
            class="btn"
            onClick={() => {
              setChanges(true);
              loadChangesSheet().catch(() => setError("Could not load the files view: is lab reachable?"));
            }}
            data-action="changes"
          >
            Files
          </button>
        </Header>
        <MeterPanel usage={conv.usage()} open={meter()} />
        <Show when={conv.error()}>
          <p class="error banner" role="alert" data-banner>
            {conv.offline() ? "Offline: cannot reach the lab server." : conv.error()}
          </p>
        </Show>
        <AttachmentsOf.Provider value={() => ({ kind: "sessions", id: props.id })}>
          <ChatPane conv={conv} readOnly={true} />
        </AttachmentsOf.Provider>
        <footer class="composer">
          <Alert error={error()} />
          <div class="note-line end-bar" data-composer="readonly">
            <span class="grow muted">Read-only history.</span>
            <Show
              when={session()?.run_live && session()?.run_id}
              fallback={
                <button class="btn primary" disabled={busy()} onClick={resume} data-action="resume">
                  Resume
                </button>
              }
            >
              {(runID) => (
                <a class="btn primary" href={`/runs/${encodeURIComponent(runID())}`} onClick={linkHandler} data-action="open-live">
                  Open live run
                </a>
              )}
            </Show>
          </div>
        </footer>
        <Show when={changes() && changesSheet()}>
          {(sheet) => {
            const Sheet = sheet();
            return <Sheet sessionId={props.id} onClose={() => setChanges(false)} />;
          }}
        </Show>
      </div>
    </Show>
  );
}
