// The Changes sheet of a run (or a history session), loaded lazily over
// its chat: the files its folder gained, lost or changed, "this turn" or
// "whole run", each with its +/- counts; a file's diff with line numbers,
// where a tapped line can be commented on (a reply quoting path:line and
// the line); the file as it is now; and a worktree run's branch with its
// commit and removal. A history session has no snapshots: it lists the
// files its tool calls wrote. The sheet's body is its one scroll
// container; long lines wrap inside their block.

import { createSignal, For, Match, Show, Switch } from "solid-js";
import { errorText, type Run } from "../api";
import { changesApi, type Changes, type FileChange, type Since } from "./api";
import { statusMark } from "./diff";
import { DiffView } from "./DiffView";
import { fetched } from "./fetched";
import { FileText } from "./FileView";
import { WorktreePanel } from "./WorktreePanel";
import css from "./changes.css?inline";

// The sheet's styles come with its chunk, as text: a stylesheet the chunk
// imported would make the app's first download carry Vite's preloader.
if (typeof document !== "undefined" && !document.getElementById("changes-css")) {
  const style = document.createElement("style");
  style.id = "changes-css";
  style.textContent = css;
  document.head.append(style);
}

export interface SheetProps {
  /** The run whose changes are shown; or sessionId for a history session. */
  runId?: string;
  sessionId?: string;
  run?: Run | null;
  /** Sends a reply to the agent; absent when the run cannot take one (ended, history). */
  onReply?: (text: string) => Promise<void>;
  onClose: () => void;
  /** The run changed here (its worktree committed or removed). */
  onChanged?: () => void;
}

type View = { kind: "list" } | { kind: "diff"; file: FileChange } | { kind: "file"; path: string };

export default function ChangesSheet(props: SheetProps) {
  const [since, setSince] = createSignal<Since>(props.run?.state === "ended" ? "start" : "turn");
  const [view, setView] = createSignal<View>({ kind: "list" });
  const [tick, setTick] = createSignal(0);
  const changes = fetched(
    () => (props.runId ? ([props.runId, since(), tick()] as const) : false),
    ([id, s]) => changesApi.run(id, s),
  );
  const touched = fetched(
    () => (props.sessionId ? ([props.sessionId, tick()] as const) : false),
    ([id]) => changesApi.session(id),
  );
  const back = () => {
    const v = view();
    if (v.kind === "file" && props.runId) {
      const f = changes.data()?.files?.find((x) => x.path === v.path);
      if (f) return setView({ kind: "diff", file: f });
    }
    if (v.kind === "list") props.onClose();
    else setView({ kind: "list" });
  };
  const title = () => {
    const v = view();
    return v.kind === "diff" ? baseName(v.file.path) : v.kind === "file" ? baseName(v.path) : "Changes";
  };
  const sub = () => {
    const v = view();
    if (v.kind === "diff") return v.file.old_path ? `${v.file.old_path} → ${v.file.path}` : v.file.path;
    if (v.kind === "file") return `${v.path} · as it is now`;
    return props.run?.cwd ?? touched.data()?.folder ?? "";
  };

  return (
    <div class="sheet" role="dialog" aria-modal="true" aria-label="Changes" data-sheet="changes">
      <header class="bar">
        <button class="icon-btn" onClick={back} aria-label={view().kind === "list" ? "Close changes" : "Back"} data-action="sheet-back">
          {view().kind === "list" ? "×" : "‹"}
        </button>
        <div class="bar-title">
          <h1>{title()}</h1>
          <div class="bar-sub">{sub()}</div>
        </div>
        <div class="bar-actions">
          <Show when={view().kind === "list"}>
            <button class="btn" onClick={() => setTick(tick() + 1)} aria-label="Refresh" data-action="refresh-changes">
              ↻
            </button>
          </Show>
        </div>
      </header>
      <main class="scroll sheet-body">
        <Switch>
          <Match when={view().kind === "diff" && (view() as { file: FileChange }).file}>
            {(file) => (
              <DiffView
                runId={props.runId!}
                file={file()}
                since={since()}
                onReply={props.onReply}
                onSent={props.onClose}
                onFile={() => setView({ kind: "file", path: file().path })}
              />
            )}
          </Match>
          <Match when={view().kind === "file" && (view() as { path: string }).path}>
            {(path) => <FileText load={() => (props.runId ? changesApi.file(props.runId, path()) : changesApi.sessionFile(props.sessionId!, path()))} />}
          </Match>
          <Match when={props.runId}>
            <Show when={props.run?.worktree}>
              <WorktreePanel run={props.run!} onChanged={() => (setTick(tick() + 1), props.onChanged?.())} />
            </Show>
            <div class="seg" role="group" aria-label="Count changes since">
              <button class="btn" aria-pressed={since() === "turn"} onClick={() => setSince("turn")} data-since="turn">
                This turn
              </button>
              <button class="btn" aria-pressed={since() === "start"} onClick={() => setSince("start")} data-since="start">
                Whole run
              </button>
            </div>
            <Show when={changes.error()}>
              <p class="notice error" role="alert" data-changes-error>
                {errorText(changes.error())}
              </p>
            </Show>
            <Show when={!changes.error() && changes.data()}>{(c) => <FileList c={c()} onOpen={(f) => setView({ kind: "diff", file: f })} />}</Show>
            <Show when={changes.loading() && !changes.data()}>
              <p class="muted pad">Loading…</p>
            </Show>
          </Match>
          <Match when={props.sessionId}>
            <p class="muted small pad">
              Lab kept no snapshots of this session: these are the files its tool calls wrote (what a shell command wrote is not known).
            </p>
            <Show when={touched.error()}>
              <p class="notice error" role="alert" data-changes-error>
                {errorText(touched.error())}
              </p>
            </Show>
            <ul class="files" data-testid="touched">
              <For each={touched.data()?.files ?? []} fallback={<li class="muted pad">{touched.data() ? "Its tool calls wrote no files." : ""}</li>}>
                {(f) => (
                  <li>
                    <button class="file-row" disabled={f.outside} onClick={() => setView({ kind: "file", path: f.path })} data-file={f.path}>
                      <span class="path grow">{f.path}</span>
                      <span class="muted small">{f.outside ? "outside the folder" : `${f.calls} call${f.calls === 1 ? "" : "s"}`}</span>
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </Match>
        </Switch>
      </main>
    </div>
  );
}

/** FileList is the changed files with their counts. */
function FileList(props: { c: Changes; onOpen: (f: FileChange) => void }) {
  const files = () => props.c.files ?? [];
  const since = () => (props.c.since === "turn" ? (props.c.base.turn > 0 ? "this turn began" : "the run started (this is its first turn)") : "the run started");
  return (
    <>
      <p class="muted small pad summary-line" data-summary>
        {files().length} file{files().length === 1 ? "" : "s"} changed since {since()}
        <Show when={files().length}>
          {" · "}
          <span class="plus">+{props.c.added}</span> <span class="minus">−{props.c.removed}</span>
        </Show>
        <Show when={props.c.current === "snapshot"}>
          <br />
          The folder is gone: compared with its last snapshot.
        </Show>
      </p>
      <ul class="files" data-testid="changed-files">
        <For each={files()}>
          {(f) => (
            <li>
              <button class="file-row" onClick={() => props.onOpen(f)} data-file={f.path} data-status={f.status}>
                <span class={`st-mark st-${f.status}`} title={f.status}>
                  {statusMark(f.status)}
                </span>
                <span class="path grow">
                  <Show when={f.old_path}>
                    <span class="muted">{f.old_path} → </span>
                  </Show>
                  {f.path}
                </span>
                <span class="counts small">
                  <Show when={!f.binary && !f.submodule} fallback={<span class="muted">{f.submodule ? "submodule" : "binary"}</span>}>
                    <span class="plus">+{f.added}</span> <span class="minus">−{f.removed}</span>
                  </Show>
                </span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </>
  );
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1) || p;
}
