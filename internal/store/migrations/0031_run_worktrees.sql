-- The git worktree lab made for a run that asked for one: at path, on a
-- new branch made from base (a commit; base_ref the branch HEAD was on,
-- '' when detached) in the repository whose working tree is at repo.
-- removed_at is set once lab removed the worktree (the branch stays).
-- A resumed run works in the same worktree, so several runs may share
-- one. Times are unix milliseconds.
CREATE TABLE run_worktrees (
  run_id     TEXT    PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  repo       TEXT    NOT NULL,
  path       TEXT    NOT NULL,
  branch     TEXT    NOT NULL,
  base       TEXT    NOT NULL,
  base_ref   TEXT    NOT NULL DEFAULT '',
  removed_at INTEGER
);
CREATE INDEX run_worktrees_path ON run_worktrees (path);
