// The one quiet banner while the app is out of touch with lab: what the
// screen shows is the last known, and what the operator sends waits in
// the outbox until the connection is back (see events.ts, outbox.ts).

import { Show } from "solid-js";
import { connected, downSince } from "../events";
import { outbox } from "../outbox";

export function ConnBanner() {
  const since = () => {
    const t = downSince();
    return t ? new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  };
  const waiting = () => outbox().filter((i) => i.status !== "failed").length;
  return (
    <Show when={!connected()}>
      <div class="conn-banner" role="status" data-conn-banner>
        <span class="spinner" aria-hidden="true" />
        <span>
          Reconnecting to lab{since() ? ` (out of touch since ${since()})` : ""}: this may be out of date.
          <Show when={waiting() > 0}> {waiting() === 1 ? "1 message waits" : `${waiting()} messages wait`} to be sent.</Show>
        </span>
      </div>
    </Show>
  );
}
