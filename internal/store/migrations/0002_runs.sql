-- Runs: the Claude Code processes lab started in tmux. Times are unix
-- milliseconds; ended_at is NULL while the run lives.
CREATE TABLE runs (
  id              TEXT PRIMARY KEY,
  cwd             TEXT NOT NULL,
  title           TEXT NOT NULL,
  title_auto      INTEGER NOT NULL DEFAULT 0, -- 1 while the title is only the directory name
  prompt          TEXT NOT NULL DEFAULT '',
  model           TEXT NOT NULL DEFAULT '',
  permission_mode TEXT NOT NULL DEFAULT '',
  session_id      TEXT NOT NULL DEFAULT '',
  transcript_path TEXT NOT NULL DEFAULT '',
  cli_version     TEXT NOT NULL DEFAULT '',
  claude_bin      TEXT NOT NULL DEFAULT '',
  tmux_session    TEXT NOT NULL,
  run_dir         TEXT NOT NULL,
  started_at      INTEGER NOT NULL,
  ended_at        INTEGER,
  end_reason      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_started ON runs (started_at DESC);
CREATE INDEX runs_live ON runs (ended_at) WHERE ended_at IS NULL;

-- Every CLI session a run has had: /clear starts a new one in the same
-- process, and history needs to know which run owns each transcript.
CREATE TABLE run_sessions (
  session_id      TEXT PRIMARY KEY,
  run_id          TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  transcript_path TEXT NOT NULL,
  seen_at         INTEGER NOT NULL
);
CREATE INDEX run_sessions_run ON run_sessions (run_id);
