package store

import (
	"context"
	"time"

	"lab/internal/conv"
)

// Snapshot is a run_snapshots row: the run's folder recorded as a git
// tree at one moment.
type Snapshot struct {
	RunID   string
	Seq     int // 0 for the snapshot taken as the run started
	Prompts int // the operator's prompts the chat held then
	Tree    string
	TakenAt time.Time
}

// AddSnapshot appends a snapshot to the run's, numbering it after the
// last, and returns it.
func (db *DB) AddSnapshot(ctx context.Context, runID string, prompts int, tree string, at time.Time) (Snapshot, error) {
	var seq int
	err := db.sql.QueryRowContext(ctx, `INSERT INTO run_snapshots (run_id, seq, prompts, tree, taken_at)
		SELECT ?, coalesce(max(seq) + 1, 0), ?, ?, ? FROM run_snapshots WHERE run_id = ? RETURNING seq`,
		runID, prompts, tree, at.UnixMilli(), runID).Scan(&seq)
	if err != nil {
		return Snapshot{}, conv.Wrap(conv.EInternal, err, "record snapshot")
	}
	return Snapshot{RunID: runID, Seq: seq, Prompts: prompts, Tree: tree, TakenAt: time.UnixMilli(at.UnixMilli()).UTC()}, nil
}

// Snapshots returns the run's snapshots, oldest first.
func (db *DB) Snapshots(ctx context.Context, runID string) ([]Snapshot, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT seq, prompts, tree, taken_at FROM run_snapshots WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list snapshots")
	}
	defer rows.Close()
	var out []Snapshot
	for rows.Next() {
		s := Snapshot{RunID: runID}
		var at int64
		if err := rows.Scan(&s.Seq, &s.Prompts, &s.Tree, &at); err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list snapshots")
		}
		s.TakenAt = time.UnixMilli(at).UTC()
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list snapshots")
	}
	return out, nil
}

// DropSnapshots forgets the run's snapshots, reporting how many there were.
func (db *DB) DropSnapshots(ctx context.Context, runID string) (int, error) {
	res, err := db.sql.ExecContext(ctx, `DELETE FROM run_snapshots WHERE run_id = ?`, runID)
	if err != nil {
		return 0, conv.Wrap(conv.EInternal, err, "drop snapshots")
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
