package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
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
	ArchivedAt     *time.Time // hidden from the runs list since then
	SeenAt         *time.Time // how far the operator has read the run (see SetRunSeen)
	Attach         Attach     // set on a run following a process lab did not start
}

// Attach is how an attached run reaches the CLI process it follows.
type Attach struct {
	PID         int
	ProcStart   string // the process's start time, to tell a reused pid
	Socket      string // the operator's tmux server, "" when not in tmux
	Pane        string // "%3"
	TmuxSession string // for display
	ReadOnly    string // why lab can only follow it, "" when it can type
}

// Live reports whether the run has not ended.
func (r RunRecord) Live() bool { return r.EndedAt == nil }

// Attached reports whether the run follows a process lab did not start.
func (r RunRecord) Attached() bool { return r.Attach.PID > 0 }

const runColumns = `id, provider, cwd, title, title_auto, prompt, model, permission_mode, session_id,
	transcript_path, cli_version, claude_bin, tmux_session, run_dir, started_at, ended_at, end_reason, archived_at,
	attach_pid, attach_proc_start, attach_socket, attach_pane, attach_tmux_session, attach_read_only, seen_at`

func scanRun(row interface{ Scan(...any) error }) (RunRecord, error) {
	var r RunRecord
	var started int64
	var ended, archived, seen sql.NullInt64
	err := row.Scan(&r.ID, &r.Provider, &r.Cwd, &r.Title, &r.TitleAuto, &r.Prompt, &r.Model, &r.PermissionMode, &r.SessionID,
		&r.TranscriptPath, &r.CLIVersion, &r.Bin, &r.TmuxSession, &r.RunDir, &started, &ended, &r.EndReason, &archived,
		&r.Attach.PID, &r.Attach.ProcStart, &r.Attach.Socket, &r.Attach.Pane, &r.Attach.TmuxSession, &r.Attach.ReadOnly, &seen)
	if err != nil {
		return RunRecord{}, err
	}
	r.StartedAt = time.UnixMilli(started).UTC()
	r.EndedAt, r.ArchivedAt, r.SeenAt = millis(ended), millis(archived), millis(seen)
	return r, nil
}

// millis turns a nullable unix-ms column into a time.
func millis(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}

// nullMillis is the column value of an optional time.
func nullMillis(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

// CreateRun inserts r. Returns conv.EConflict when the id is taken.
func (db *DB) CreateRun(ctx context.Context, r RunRecord) error {
	_, err := db.sql.ExecContext(ctx, `INSERT INTO runs (`+runColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, provider(r.Provider), r.Cwd, r.Title, r.TitleAuto, r.Prompt, r.Model, r.PermissionMode, r.SessionID,
		r.TranscriptPath, r.CLIVersion, r.Bin, r.TmuxSession, r.RunDir, r.StartedAt.UnixMilli(), nullMillis(r.EndedAt), r.EndReason,
		nullMillis(r.ArchivedAt),
		r.Attach.PID, r.Attach.ProcStart, r.Attach.Socket, r.Attach.Pane, r.Attach.TmuxSession, r.Attach.ReadOnly, nullMillis(r.SeenAt))
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

// ListRuns returns the runs not archived, newest first; only the live
// ones when liveOnly.
func (db *DB) ListRuns(ctx context.Context, liveOnly bool) ([]RunRecord, error) {
	q := ` WHERE archived_at IS NULL`
	if liveOnly {
		q += ` AND ended_at IS NULL`
	}
	return db.listRuns(ctx, q)
}

// ListArchivedRuns returns the archived runs, most recently archived first.
func (db *DB) ListArchivedRuns(ctx context.Context) ([]RunRecord, error) {
	return db.listRuns(ctx, ` WHERE archived_at IS NOT NULL ORDER BY archived_at DESC, id DESC`)
}

func (db *DB) listRuns(ctx context.Context, where string) ([]RunRecord, error) {
	if !strings.Contains(where, "ORDER BY") {
		where += ` ORDER BY started_at DESC, id DESC`
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+runColumns+` FROM runs`+where)
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

// SetRunArchived archives an ended run at at, or unarchives it when at is
// nil, reporting whether anything changed. Returns conv.ENotFound, and
// conv.EConflict for a live run: only ended runs are archived.
func (db *DB) SetRunArchived(ctx context.Context, id string, at *time.Time) (bool, error) {
	cond := `archived_at IS NULL`
	if at == nil {
		cond = `archived_at IS NOT NULL`
	}
	res, err := db.sql.ExecContext(ctx, `UPDATE runs SET archived_at = ? WHERE id = ? AND ended_at IS NOT NULL AND `+cond, nullMillis(at), id)
	if err != nil {
		return false, conv.Wrap(conv.EInternal, err, "archive run")
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, nil
	}
	r, err := db.GetRun(ctx, id)
	if err != nil {
		return false, err
	}
	if r.Live() {
		return false, conv.Errorf(conv.EConflict, "run %s is still running: stop it before archiving", id)
	}
	return false, nil
}

// SetRunSeen records how far the operator has read a run: at is never
// moved back, so a late report from a slow page cannot undo a newer one.
// Returns conv.ENotFound.
func (db *DB) SetRunSeen(ctx context.Context, id string, at time.Time) error {
	res, err := db.sql.ExecContext(ctx, `UPDATE runs SET seen_at = max(coalesce(seen_at, 0), ?) WHERE id = ?`, at.UnixMilli(), id)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "mark run seen")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	return nil
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

// SessionOwner is the run that last had a session, and whether it lives.
type SessionOwner struct {
	RunID string
	Live  bool
}

// SessionOwners maps every CLI session id any run has had to the run that
// last had it (a resumed or attached run takes a session over).
func (db *DB) SessionOwners(ctx context.Context) (map[string]SessionOwner, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT s.session_id, s.run_id, r.ended_at IS NULL FROM run_sessions s JOIN runs r ON r.id = s.run_id`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list run sessions")
	}
	defer rows.Close()
	out := map[string]SessionOwner{}
	for rows.Next() {
		var s string
		var o SessionOwner
		if err := rows.Scan(&s, &o.RunID, &o.Live); err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list run sessions")
		}
		out[s] = o
	}
	return out, rows.Err()
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
