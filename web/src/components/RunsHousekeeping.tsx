// The foot of the runs list: stop the idle runs in one go (after a
// confirmation that names them), archive the ended ones, and a way to see
// and restore archived runs. Every action reports what it did and what the
// server left alone (a run that started working since is never stopped).

import { createSignal, For, Show } from "solid-js";
import { api, type Run } from "../api";
import { ago, baseName } from "../lib/format";
import { bulkSummary, endedRuns, idleRuns } from "../lib/housekeeping";
import { linkHandler } from "../router";
import "../styles/housekeeping.css";

export function RunsHousekeeping(props: { runs: Run[]; onChanged: () => void }) {
  const [confirmStop, setConfirmStop] = createSignal<Run[] | null>(null);
  const [note, setNote] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [archived, setArchived] = createSignal<Run[] | null>(null);
  // The runs the last archiving put away, while its Undo is offered.
  const [undo, setUndo] = createSignal<string[]>([]);

  const idle = () => idleRuns(props.runs);
  const ended = () => endedRuns(props.runs);

  async function act(fn: () => Promise<string>) {
    setBusy(true);
    setUndo([]);
    try {
      setNote(await fn());
    } catch (e) {
      setNote(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      props.onChanged();
    }
  }

  const stopIdle = () =>
    act(async () => {
      const ids = (confirmStop() ?? []).map((r) => r.id);
      setConfirmStop(null);
      return bulkSummary("Stopped", await api.stopIdleRuns(ids));
    });

  const archiveEnded = () =>
    act(async () => {
      const r = await api.archiveRuns(ended().map((x) => x.id));
      setUndo(r.done ?? []);
      return bulkSummary("Archived", r);
    });

  const undoArchive = () => {
    const ids = undo();
    act(async () => bulkSummary("Restored", await api.unarchiveRuns(ids)));
  };

  async function loadArchived() {
    try {
      setArchived(await api.archivedRuns());
    } catch (e) {
      setNote(e instanceof Error ? e.message : String(e));
    }
  }

  const unarchive = (id: string) =>
    act(async () => {
      const r = await api.unarchiveRuns([id]);
      await loadArchived();
      return bulkSummary("Restored", r);
    });

  return (
    <section class="housekeeping" aria-label="Housekeeping">
      <Show when={confirmStop()}>
        {(list) => (
          <div class="confirm" role="alertdialog" aria-label="Stop idle runs?">
            <div class="grow">
              <strong>
                Stop {list().length} idle run{list().length === 1 ? "" : "s"}?
              </strong>{" "}
              Their CLI processes end; the chats stay.
              <ul class="hk-names">
                <For each={list()}>
                  {(r) => (
                    <li data-stop-name={r.id}>
                      {r.title || baseName(r.cwd)} <span class="hk-path muted">{r.cwd}</span>
                    </li>
                  )}
                </For>
              </ul>
            </div>
            <button class="btn" onClick={() => setConfirmStop(null)}>
              Cancel
            </button>
            <button class="btn danger" disabled={busy()} onClick={stopIdle} data-action="confirm-stop-idle">
              Stop {list().length}
            </button>
          </div>
        )}
      </Show>
      <div class="hk-actions">
        <Show when={idle().length > 0 && !confirmStop()}>
          <button class="btn" disabled={busy()} onClick={() => setConfirmStop(idle())} data-action="stop-idle">
            Stop idle runs ({idle().length})
          </button>
        </Show>
        <Show when={ended().length > 0}>
          <button class="btn" disabled={busy()} onClick={archiveEnded} data-action="archive-ended">
            Archive ended runs ({ended().length})
          </button>
        </Show>
        <button
          class="btn"
          aria-expanded={archived() !== null}
          onClick={() => (archived() === null ? loadArchived() : setArchived(null))}
          data-action="show-archived"
        >
          {archived() === null ? "Show archived" : "Hide archived"}
        </button>
      </div>
      <Show when={note()}>
        <p class="muted hk-note" role="status">
          {note()}
          <Show when={undo().length > 0}>
            {" "}
            <button class="link" disabled={busy()} onClick={undoArchive} data-action="undo-archive">
              Undo
            </button>
          </Show>
        </p>
      </Show>
      <Show when={archived()}>
        {(list) => (
          <div class="hk-archived">
            <h2 class="hk-title">Archived</h2>
            <Show when={list().length > 0} fallback={<p class="muted pad">Nothing archived.</p>}>
              <ul class="rows">
                <For each={list()}>
                  {(r) => (
                    <li class="hk-row" data-archived={r.id}>
                      <a class="row grow" href={`/runs/${encodeURIComponent(r.id)}`} onClick={linkHandler}>
                        <div class="row-main">
                          <div class="row-title">{r.title || baseName(r.cwd)}</div>
                          <div class="row-sub muted">
                            {baseName(r.cwd)} · {ago(r.started_at)}
                          </div>
                        </div>
                      </a>
                      <button class="btn" disabled={busy()} onClick={() => unarchive(r.id)} data-action="unarchive">
                        Restore
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </div>
        )}
      </Show>
    </section>
  );
}
