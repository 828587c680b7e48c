// A worktree run's branch in the changes sheet: where it came from, the
// command that merges it, and once the run ended, a commit of everything
// on the branch (message defaulting to the run's title) and the
// worktree's removal (the branch stays). Removing one with uncommitted
// changes is refused by the server; the operator may then confirm.

import { createSignal, Show } from "solid-js";
import { ApiError, errorText, type Run } from "../api";
import { CopyButton } from "../components/CopyButton";
import { changesApi } from "./api";

export function WorktreePanel(props: { run: Run; onChanged: () => void }) {
  const w = () => props.run.worktree!;
  const ended = () => props.run.state === "ended";
  const [message, setMessage] = createSignal(props.run.title);
  const [busy, setBusy] = createSignal(false);
  const [note, setNote] = createSignal("");
  const [error, setError] = createSignal("");
  const [dirty, setDirty] = createSignal(false);

  async function act(fn: () => Promise<string>) {
    setBusy(true);
    setError("");
    setNote("");
    try {
      setNote(await fn());
      props.onChanged();
    } catch (e) {
      setError(errorText(e));
      return e;
    } finally {
      setBusy(false);
    }
  }
  const commit = () =>
    act(async () => {
      const r = await changesApi.commit(props.run.id, message());
      setDirty(false);
      return `Committed ${r.commit.slice(0, 12)} on ${r.branch}.`;
    });
  const remove = async (force: boolean) => {
    const e = await act(async () => {
      await changesApi.remove(props.run.id, force);
      return `Removed the worktree; the branch ${w().branch} stays.`;
    });
    setDirty(e instanceof ApiError && e.status === 409 && /uncommitted/.test(e.message));
  };

  return (
    <section class="wt" data-worktree>
      <p class="wt-line">
        Branch <code data-branch>{w().branch}</code> from <code>{w().base_ref || w().base.slice(0, 12)}</code>
        <Show when={w().base_ref}>
          <span class="muted small"> ({w().base.slice(0, 12)})</span>
        </Show>
      </p>
      <p class="muted small wt-path">
        <Show when={!w().removed_at} fallback={<>The worktree was removed; the branch stays.</>}>
          Works in {w().path}
        </Show>
      </p>
      <div class="wt-merge">
        <span class="muted small">To merge, in {w().repo}:</span>
        <pre class="code wrap" data-merge>
          {w().merge}
        </pre>
        <CopyButton text={() => w().merge} label="Copy the merge command" />
      </div>
      <Show when={ended() && !w().removed_at}>
        <label class="wt-msg">
          Commit message
          <input name="commit_message" value={message()} onInput={(e) => setMessage(e.currentTarget.value)} />
        </label>
        <div class="wt-actions">
          <button class="btn primary" disabled={busy()} onClick={commit} data-action="commit">
            Commit all changes
          </button>
          <Show
            when={dirty()}
            fallback={
              <button class="btn danger" disabled={busy()} onClick={() => remove(false)} data-action="remove-worktree">
                Remove worktree
              </button>
            }
          >
            <button class="btn danger" disabled={busy()} onClick={() => remove(true)} data-action="force-remove">
              Remove anyway, losing them
            </button>
          </Show>
        </div>
      </Show>
      <Show when={!ended()}>
        <p class="muted small">Commit and remove it once the run has ended.</p>
      </Show>
      <Show when={note()}>
        <p class="small" role="status" data-worktree-note>
          {note()}
        </p>
      </Show>
      <Show when={error()}>
        <p class="error small" role="alert">
          {error()}
        </p>
      </Show>
    </section>
  );
}
