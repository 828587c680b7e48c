package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"lab/internal/conv"
)

// Worktree is a run_worktrees row: the git worktree a run works in.
type Worktree struct {
	RunID     string
	Repo      string // the repository's main working tree
	Path      string
	Branch    string
	Base      string // the commit the branch was made from
	BaseRef   string // the branch HEAD was on then, "" when detached
	RemovedAt *time.Time
}

const worktreeColumns = `run_id, repo, path, branch, base, base_ref, removed_at`

func scanWorktree(row interface{ Scan(...any) error }) (Worktree, error) {
	var w Worktree
	var removed sql.NullInt64
	if err := row.Scan(&w.RunID, &w.Repo, &w.Path, &w.Branch, &w.Base, &w.BaseRef, &removed); err != nil {
		return Worktree{}, err
	}
	w.RemovedAt = millis(removed)
	return w, nil
}

// SetWorktree records the worktree a run works in.
func (db *DB) SetWorktree(ctx context.Context, w Worktree) error {
	_, err := db.sql.ExecContext(ctx, `INSERT INTO run_worktrees (`+worktreeColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (run_id) DO UPDATE SET repo = excluded.repo, path = excluded.path, branch = excluded.branch,
		base = excluded.base, base_ref = excluded.base_ref, removed_at = excluded.removed_at`,
		w.RunID, w.Repo, w.Path, w.Branch, w.Base, w.BaseRef, nullMillis(w.RemovedAt))
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "record worktree")
	}
	return nil
}

// RunWorktree returns the run's worktree; ok is false for a run without one.
func (db *DB) RunWorktree(ctx context.Context, runID string) (Worktree, bool, error) {
	w, err := scanWorktree(db.sql.QueryRowContext(ctx, `SELECT `+worktreeColumns+` FROM run_worktrees WHERE run_id = ?`, runID))
	if errors.Is(err, sql.ErrNoRows) {
		return Worktree{}, false, nil
	}
	if err != nil {
		return Worktree{}, false, conv.Wrap(conv.EInternal, err, "read worktree")
	}
	return w, true, nil
}

// WorktreeAt returns the newest run's record of a worktree at path that
// lab has not removed; ok is false when there is none.
func (db *DB) WorktreeAt(ctx context.Context, path string) (Worktree, bool, error) {
	w, err := scanWorktree(db.sql.QueryRowContext(ctx, `SELECT `+worktreeColumns+` FROM run_worktrees w
		JOIN runs r ON r.id = w.run_id WHERE w.path = ? AND w.removed_at IS NULL ORDER BY r.started_at DESC LIMIT 1`, path))
	if errors.Is(err, sql.ErrNoRows) {
		return Worktree{}, false, nil
	}
	if err != nil {
		return Worktree{}, false, conv.Wrap(conv.EInternal, err, "find worktree")
	}
	return w, true, nil
}

// Worktrees maps every run with a worktree to it.
func (db *DB) Worktrees(ctx context.Context) (map[string]Worktree, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+worktreeColumns+` FROM run_worktrees`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list worktrees")
	}
	defer rows.Close()
	out := map[string]Worktree{}
	for rows.Next() {
		w, err := scanWorktree(rows)
		if err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list worktrees")
		}
		out[w.RunID] = w
	}
	return out, rows.Err()
}

// MarkWorktreeRemoved records that the worktree at path is gone, for
// every run that worked in it.
func (db *DB) MarkWorktreeRemoved(ctx context.Context, path string, at time.Time) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE run_worktrees SET removed_at = ? WHERE path = ? AND removed_at IS NULL`, at.UnixMilli(), path)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "mark worktree removed")
	}
	return nil
}
