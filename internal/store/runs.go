package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"lab/internal/conv"
)

// RunRecord is a runs row: what lab knows of a run beyond what the CLI's
// own files say.
type RunRecord struct {
	ID             string
	Provider       string // the agent CLI: "claude", …
	Cwd            string
	Title          string
	TitleAuto      bool // the title is only the directory name so far
	Prompt         string
	Model          string
	PermissionMode string
	SessionID      string
	TranscriptPath string
	CLIVersion     string
	Bin            string // the CLI binary (column claude_bin)
	TmuxSession    string
	RunDir         string
	StartedAt      time.Time
	EndedAt        *time.Time
	EndReason      string
}

// Live reports whether the run has not ended.
func (r RunRecord) Live() bool { return r.EndedAt == nil }

const runColumns = `id, provider, cwd, title, title_auto, prompt, model, permission_mode, session_id,
	transcript_path, cli_version, claude_bin, tmux_session, run_dir, started_at, ended_at, end_reason`

func scanRun(row interface{ Scan(...any) error }) (RunRecord, error) {
	var r RunRecord
	var started int64
	var ended sql.NullInt64
	err := row.Scan(&r.ID, &r.Provider, &r.Cwd, &r.Title, &r.TitleAuto, &r.Prompt, &r.Model, &r.PermissionMode, &r.SessionID,
		&r.TranscriptPath, &r.CLIVersion, &r.Bin, &r.TmuxSession, &r.RunDir, &started, &ended, &r.EndReason)
	if err != nil {
		return RunRecord{}, err
	}
	r.StartedAt = time.UnixMilli(started).UTC()
	if ended.Valid {
		t := time.UnixMilli(ended.Int64).UTC()
		r.EndedAt = &t
	}
	return r, nil
}

// CreateRun inserts r. Returns conv.EConflict when the id is taken.
func (db *DB) CreateRun(ctx context.Context, r RunRecord) error {
	var ended any
	if r.EndedAt != nil {
		ended = r.EndedAt.UnixMilli()
	}
	_, err := db.sql.ExecContext(ctx, `INSERT INTO runs (`+runColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, provider(r.Provider), r.Cwd, r.Title, r.TitleAuto, r.Prompt, r.Model, r.PermissionMode, r.SessionID,
		r.TranscriptPath, r.CLIVersion, r.Bin, r.TmuxSession, r.RunDir, r.StartedAt.UnixMilli(), ended, r.EndReason)
	if err != nil {
		var n int
		if db.sql.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE id = ?`, r.ID).Scan(&n) == nil && n > 0 {
			return conv.Errorf(conv.EConflict, "run %s already exists", r.ID)
		}
		return conv.Wrap(conv.EInternal, err, "record run")
	}
	return nil
}

// GetRun returns the run with id. Returns conv.ENotFound.
func (db *DB) GetRun(ctx context.Context, id string) (RunRecord, error) {
	r, err := scanRun(db.sql.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return RunRecord{}, conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	if err != nil {
		return RunRecord{}, conv.Wrap(conv.EInternal, err, "read run")
	}
	return r, nil
}

// ListRuns returns all runs, newest first; only the live ones when
// liveOnly.
func (db *DB) ListRuns(ctx context.Context, liveOnly bool) ([]RunRecord, error) {
	q := `SELECT ` + runColumns + ` FROM runs`
	if liveOnly {
		q += ` WHERE ended_at IS NULL`
	}
	rows, err := db.sql.QueryContext(ctx, q+` ORDER BY started_at DESC, id DESC`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list runs")
	}
	defer rows.Close()
	var out []RunRecord
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list runs")
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list runs")
	}
	return out, nil
}

// EndRun marks a live run ended at at with reason, reporting whether it
// was live. Returns conv.ENotFound for an unknown id.
func (db *DB) EndRun(ctx context.Context, id string, at time.Time, reason string) (bool, error) {
	res, err := db.sql.ExecContext(ctx, `UPDATE runs SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL`, at.UnixMilli(), reason, id)
	if err != nil {
		return false, conv.Wrap(conv.EInternal, err, "end run")
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		if _, err := db.GetRun(ctx, id); err != nil {
			return false, err
		}
	}
	return n > 0, nil
}

// SetRunSession records that the run's CLI is now in session sessionID
// writing transcriptPath (the first SessionStart, or a /clear), and keeps
// the pair in run_sessions for history. Returns conv.ENotFound.
func (db *DB) SetRunSession(ctx context.Context, id, sessionID, transcriptPath string, at time.Time) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set run session")
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE runs SET session_id = ?, transcript_path = ? WHERE id = ?`, sessionID, transcriptPath, id)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set run session")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	if sessionID != "" {
		_, err = tx.ExecContext(ctx, `INSERT INTO run_sessions (session_id, run_id, transcript_path, seen_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET run_id = excluded.run_id, transcript_path = excluded.transcript_path`,
			sessionID, id, transcriptPath, at.UnixMilli())
		if err != nil {
			return conv.Wrap(conv.EInternal, err, "set run session")
		}
	}
	if err := tx.Commit(); err != nil {
		return conv.Wrap(conv.EInternal, err, "set run session")
	}
	return nil
}

// SetRunTitle replaces an automatic title (the directory name) with one
// taken from the first prompt seen. A title already taken from a prompt is
// kept; the result reports whether the title changed.
func (db *DB) SetRunTitle(ctx context.Context, id, title string) (bool, error) {
	res, err := db.sql.ExecContext(ctx, `UPDATE runs SET title = ?, title_auto = 0 WHERE id = ? AND title_auto = 1`, title, id)
	if err != nil {
		return false, conv.Wrap(conv.EInternal, err, "set run title")
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// RunSessions maps every CLI session id any run has had to that run's id.
func (db *DB) RunSessions(ctx context.Context) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT session_id, run_id FROM run_sessions`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list run sessions")
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var s, r string
		if err := rows.Scan(&s, &r); err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list run sessions")
		}
		out[s] = r
	}
	return out, rows.Err()
}

// provider defaults an unset provider to the one every older run used.
func provider(p string) string {
	if p == "" {
		return "claude"
	}
	return p
}
