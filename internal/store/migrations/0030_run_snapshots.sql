-- Snapshots of a run's folder (a git repository), taken as the run
-- starts and as each of its turns ends: a git tree in lab's own object
-- store for the run (<run dir>/snapshots), never in the operator's.
-- prompts is how many of the operator's prompts the run's chat held when
-- the snapshot was taken (0 at the start). Times are unix milliseconds.
CREATE TABLE run_snapshots (
  run_id   TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL, -- 0 at the start, then 1, 2, … per run
  prompts  INTEGER NOT NULL,
  tree     TEXT    NOT NULL,
  taken_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq)
);
