// The bottom bars of a run's chat when there is no composer: an ended run
// (Resume continues its session in a new run; Archive hides it from the
// list) and an attached session lab can only follow.

import { createSignal, Show } from "solid-js";
import { api, type Run } from "../api";
import { navigate } from "../router";
import "../styles/attach.css";
import { Alert } from "./Alert";

/** endedNote says how a run ended, in the operator's words. */
export function endedNote(r: Run | null): string {
  if (r?.end_reason === "detached") return "Detached: lab stopped following this session; its process runs on.";
  return "This run has ended.";
}

export function EndedBar(props: { run: Run | null; onChanged: () => void }) {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal("");

  async function act(fn: () => Promise<void>) {
    setBusy(true);
    setError("");
    try {
      await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }
  const resume = () =>
    act(async () => {
      const run = await api.resumeRun(props.run!.id);
      navigate(`/runs/${encodeURIComponent(run.id)}`);
    });
  const archive = (on: boolean) =>
    act(async () => {
      const ids = [props.run!.id];
      const r = on ? await api.archiveRuns(ids) : await api.unarchiveRuns(ids);
      const skipped = r.skipped?.[0];
      if (skipped) throw new Error(skipped.reason);
      props.onChanged();
    });

  return (
    <footer class="composer">
      <Alert error={error()} />
      <div class="note-line end-bar" data-composer="ended">
        <span class="grow muted">{endedNote(props.run)}</span>
        <Show when={props.run?.session_id}>
          <Show
            when={props.run?.end_reason !== "detached"}
            fallback={
              <a class="btn" href="/attach" onClick={(e) => (e.preventDefault(), navigate("/attach"))}>
                Attach again
              </a>
            }
          >
            <button class="btn primary" disabled={busy()} onClick={resume} data-action="resume">
              Resume
            </button>
          </Show>
        </Show>
        <Show when={props.run}>
          <button class="btn" disabled={busy()} onClick={() => archive(!props.run!.archived_at)} data-action="archive">
            {props.run!.archived_at ? "Restore" : "Archive"}
          </button>
        </Show>
      </div>
    </footer>
  );
}

/** ReadOnlyBar stands for the composer of an attached session lab cannot type into. */
export function ReadOnlyBar(props: { reason: string }) {
  return (
    <footer class="composer">
      <div class="note-line muted" data-composer="readonly">
        Read-only: {props.reason}. Lab follows its transcript but cannot answer or reply.
      </div>
    </footer>
  );
}
