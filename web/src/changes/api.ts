// The changes view's part of lab's API (conv/changes.go): what a run
// changed in its folder, a file's diff and content, a history session's
// written files, and a worktree run's commit and removal. Kept out of
// ../api.ts so it loads with the lazy changes chunk.

import { call } from "../api";

export type FileStatus = "added" | "modified" | "deleted" | "renamed";
/** Since names where changes count from: the run's start, or this turn's. */
export type Since = "start" | "turn";

export interface FileChange {
  path: string;
  old_path?: string;
  status: FileStatus;
  binary: boolean;
  submodule?: boolean;
  added: number;
  removed: number;
}

export interface Changes {
  since: Since;
  /** The snapshot compared against, and the newest one (turn: the prompts the chat held then). */
  base: { taken_at: string; turn: number };
  latest: { taken_at: string; turn: number };
  /** "folder": compared with the folder now; "snapshot": its last snapshot (the folder is gone). */
  current: "folder" | "snapshot";
  files: FileChange[] | null;
  added: number;
  removed: number;
}

/** FileDiff: one file's unified diff (the permission prompt's form), or a note saying why there is none. */
export interface FileDiff {
  path: string;
  old_path?: string;
  status: FileStatus;
  binary: boolean;
  too_large?: boolean;
  diff?: string;
  note?: string;
  old_size: number;
  new_size: number;
}

export interface FileView {
  path: string;
  size: number;
  text: string;
  truncated?: boolean;
  binary?: boolean;
}

export interface TouchedFiles {
  folder: string;
  files: { path: string; calls: number; outside?: boolean }[] | null;
}

export interface CommitResult {
  commit: string;
  branch: string;
}

const enc = encodeURIComponent;
const q = (path: string, since?: Since) => `?path=${enc(path)}${since ? `&since=${since}` : ""}`;

export const changesApi = {
  run: (id: string, since: Since) => call<Changes>("GET", `/runs/${enc(id)}/changes?since=${since}`),
  diff: (id: string, path: string, since: Since) => call<FileDiff>("GET", `/runs/${enc(id)}/changes/diff${q(path, since)}`),
  file: (id: string, path: string) => call<FileView>("GET", `/runs/${enc(id)}/file${q(path)}`),
  session: (id: string) => call<TouchedFiles>("GET", `/sessions/${enc(id)}/changes`),
  sessionFile: (id: string, path: string) => call<FileView>("GET", `/sessions/${enc(id)}/file${q(path)}`),
  commit: (id: string, message: string) => call<CommitResult>("POST", `/runs/${enc(id)}/worktree/commit`, { message }),
  remove: (id: string, force: boolean) => call<unknown>("POST", `/runs/${enc(id)}/worktree/remove`, { force }),
};
