package runs

import (
	"context"

	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/tmux"
)

// Terminal is a live run's pane: lab's own tmux session, or the
// operator's pane of an attached run, which is checked to still host the
// attached process before every key, paste, read or watch.
type Terminal struct {
	server  *tmux.Server
	target  string
	session string // lab's own session, "" for an attached run's pane
	pid     int    // > 0: verify the pane hosts it first
}

// Terminal returns the pane of a live run. Returns conv.ENotFound,
// conv.EConflict when the run ended or is attached read-only.
func (s *Service) Terminal(ctx context.Context, id string) (Terminal, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return Terminal{}, err
	}
	if !rec.Live() {
		return Terminal{}, conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	if !rec.Attached() {
		return Terminal{server: s.tmux, target: paneTarget(rec.TmuxSession), session: rec.TmuxSession}, nil
	}
	if rec.Attach.ReadOnly != "" || rec.Attach.Socket == "" {
		return Terminal{}, conv.Errorf(conv.EConflict, "lab can only follow this session: %s", readOnlyReason(rec.Attach))
	}
	return Terminal{server: tmux.New(rec.Attach.Socket), target: rec.Attach.Pane, pid: rec.Attach.PID}, nil
}

func readOnlyReason(a store.Attach) string {
	if a.ReadOnly != "" {
		return a.ReadOnly
	}
	return "it does not run in tmux"
}

func (t Terminal) check(ctx context.Context) error {
	if t.pid == 0 {
		return nil
	}
	if err := t.server.PaneHosts(ctx, t.target, t.pid); err != nil {
		return conv.Wrap(conv.EConflict, err, "the attached session's tmux pane no longer shows it; lab typed nothing")
	}
	return nil
}

// SendKeys sends named keys in one call.
func (t Terminal) SendKeys(ctx context.Context, keys ...string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.server.SendKeys(ctx, t.target, keys...)
}

// Paste types text as one bracketed paste.
func (t Terminal) Paste(ctx context.Context, text string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.server.Paste(ctx, t.target, text)
}

// Type types text as plain keystrokes (no control characters).
func (t Terminal) Type(ctx context.Context, text string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.server.Type(ctx, t.target, text)
}

// Capture reads the pane.
func (t Terminal) Capture(ctx context.Context) (string, error) {
	if err := t.check(ctx); err != nil {
		return "", err
	}
	return t.server.Capture(ctx, t.target)
}

// Watch follows the pane as it is drawn (tmux.Server.Watch): read-only,
// never resizing it. conv.EConflict when an attached run's pane no longer
// hosts its process or the pane is gone.
func (t Terminal) Watch(ctx context.Context) (*tmux.Watcher, error) {
	if err := t.check(ctx); err != nil {
		return nil, err
	}
	pane := t.target
	if t.session != "" {
		p, err := t.server.PaneID(ctx, t.session)
		if err != nil {
			return nil, conv.Wrap(conv.EConflict, err, "the run's terminal is gone")
		}
		pane = p
	}
	w, err := t.server.Watch(ctx, pane)
	if err != nil {
		return nil, conv.Wrap(conv.EConflict, err, "cannot watch the run's terminal")
	}
	return w, nil
}
