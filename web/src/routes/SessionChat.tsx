// A session from history as a read-only chat: the same rendering as a run,
// no card, no composer. The header names the session by its first prompt;
// back returns to the history list with its search.

import { createSignal, onMount, Show } from "solid-js";
import { api, type Session } from "../api";
import { ChatPane } from "../components/ChatPane";
import { createConversation } from "../components/conversation";
import { Header } from "../components/Header";
import { NotFound } from "../components/NotFound";
import { sessionHeading } from "../lib/heading";
import { historyBack } from "../lib/lastsearch";

export function SessionChat(props: { id: string }) {
  const conv = createConversation({ fetch: (q) => api.sessionMessages(props.id, q) });
  const [session, setSession] = createSignal<Session | null>(null);
  onMount(async () => {
    try {
      setSession(await api.session(props.id));
    } catch {
      /* the chat still works; the header shows the id */
    }
  });
  const heading = () => sessionHeading(session(), props.id);
  return (
    <Show when={!conv.notFound()} fallback={<NotFound what="session" id={props.id} back={historyBack()} backLabel="All sessions" />}>
      <div class="screen chat-screen">
        <Header title={heading().title} back={historyBack()} sub={heading().sub} />
        <Show when={conv.error()}>
          <p class="error banner" role="alert" data-banner>
            {conv.offline() ? "Offline: cannot reach the lab server." : conv.error()}
          </p>
        </Show>
        <ChatPane conv={conv} readOnly={true} />
        <footer class="composer">
          <div class="note-line muted" data-composer="readonly">
            Read-only history.
          </div>
        </footer>
      </div>
    </Show>
  );
}
