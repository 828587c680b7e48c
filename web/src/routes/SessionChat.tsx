// A session from history as a read-only chat: the same rendering as a run,
// no card, no composer.

import { Show } from "solid-js";
import { api } from "../api";
import { ChatPane } from "../components/ChatPane";
import { createConversation } from "../components/conversation";
import { Header } from "../components/Header";

export function SessionChat(props: { id: string }) {
  const conv = createConversation({ fetch: (q) => api.sessionMessages(props.id, q) });
  return (
    <div class="screen chat-screen">
      <Header title="History" back="/history" sub={<span class="mono">{props.id.slice(0, 8)}</span>} />
      <Show when={conv.error()}>
        <p class="error banner" role="alert">
          {conv.error()}
        </p>
      </Show>
      <ChatPane conv={conv} readOnly={true} />
      <footer class="composer">
        <div class="note-line muted" data-composer="readonly">
          Read-only history.
        </div>
      </footer>
    </div>
  );
}
