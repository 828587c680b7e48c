package runs

import (
	"context"
	"os"
	"path/filepath"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/tmux"
)

// External lists the live agent CLI processes on this machine that lab did
// not start (those in lab's own tmux server are its runs), each with the
// run already following it, if any. A process in tmux whose pane does not
// verifiably host it is offered read-only.
func (s *Service) External(ctx context.Context) ([]conv.ExternalSession, error) {
	live, err := s.db.ListRuns(ctx, true)
	if err != nil {
		return nil, err
	}
	byPID, bySession := map[int]string{}, map[string]string{}
	for _, r := range live {
		if r.Attached() {
			byPID[r.Attach.PID] = r.ID
		}
		if r.SessionID != "" {
			bySession[r.SessionID] = r.ID
		}
	}
	out := []conv.ExternalSession{}
	for _, ag := range s.cfg.Agents {
		at, ok := ag.Provider.(agent.Attacher)
		if !ok {
			continue
		}
		list, err := at.External(ctx, s.cfg.cliHome())
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			if e.Tmux != nil && s.ownSocket(e.Tmux.Socket) {
				continue
			}
			if e.Tmux != nil && e.ReadOnly == "" {
				ts := tmux.New(e.Tmux.Socket)
				if err := ts.PaneHosts(ctx, e.Tmux.Pane, e.PID); err != nil {
					e.ReadOnly = "lab cannot verify its tmux pane: " + err.Error()
				} else if e.Tmux.Session == "" {
					// A CLI that records no session name (Codex): ask tmux.
					e.Tmux.Session, _ = ts.PaneSession(ctx, e.Tmux.Pane)
				}
			}
			if id, ok := byPID[e.PID]; ok {
				e.RunID = id
			} else {
				e.RunID = bySession[e.SessionID]
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// ownSocket reports whether socket is lab's own tmux server.
func (s *Service) ownSocket(socket string) bool {
	if socket == s.cfg.TmuxSocket {
		return true
	}
	a, err1 := os.Stat(socket)
	b, err2 := os.Stat(s.cfg.TmuxSocket)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Attach creates a run that follows the CLI process pid, which lab did not
// start: its chat is read from the session's transcript, and when the
// process runs in a tmux pane lab verified, answers and replies go into
// that pane. Returns conv.ENotFound when no such process is listed,
// conv.EConflict when a run already follows it.
func (s *Service) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	ag, err := s.cfg.agentFor(provider)
	if err != nil {
		return conv.Run{}, err
	}
	name := ag.Provider.Info().Name
	if _, ok := ag.Provider.(agent.Attacher); !ok {
		return conv.Run{}, conv.Errorf(conv.EInvalid, "lab cannot attach to %s sessions", ag.Provider.Info().Label)
	}
	list, err := s.External(ctx)
	if err != nil {
		return conv.Run{}, err
	}
	var e *conv.ExternalSession
	for i := range list {
		if list[i].PID == pid && list[i].Provider == name {
			e = &list[i]
		}
	}
	if e == nil {
		return conv.Run{}, conv.Errorf(conv.ENotFound, "no %s session started outside lab runs as process %d", ag.Provider.Info().Label, pid)
	}
	if e.RunID != "" {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s already follows this session", e.RunID)
	}
	id := newID()
	rec := store.RunRecord{
		ID: id, Provider: name, Cwd: e.Cwd, CLIVersion: e.Version,
		SessionID: e.SessionID, TranscriptPath: e.TranscriptPath,
		RunDir: filepath.Join(s.cfg.StateDir, "runs", id), StartedAt: s.cfg.Now(),
		Attach: store.Attach{PID: e.PID, ProcStart: e.ProcStart, ReadOnly: e.ReadOnly},
	}
	if e.Tmux != nil {
		rec.Attach.Socket, rec.Attach.Pane, rec.Attach.TmuxSession = e.Tmux.Socket, e.Tmux.Pane, e.Tmux.Session
	}
	rec.Title, rec.TitleAuto = promptTitle(e.Title), false
	if rec.Title == "" {
		rec.Title, rec.TitleAuto = filepath.Base(e.Cwd), true
	}
	if err := os.MkdirAll(rec.RunDir, 0o700); err != nil {
		return conv.Run{}, conv.Wrap(conv.EInternal, err, "create the run directory")
	}
	if err := s.db.CreateRun(ctx, rec); err != nil {
		return conv.Run{}, err
	}
	if rec.SessionID != "" {
		if err := s.db.SetRunSession(ctx, id, rec.SessionID, rec.TranscriptPath, s.cfg.Now()); err != nil {
			return conv.Run{}, err
		}
	}
	s.log.Info("run attached", "run", id, "pid", pid, "session", e.SessionID, "pane", rec.Attach.Pane, "read_only", rec.Attach.ReadOnly)
	s.changed(id)
	return s.Get(ctx, id)
}

// detach ends an attached run without touching its process.
func (s *Service) detach(ctx context.Context, rec store.RunRecord) (conv.Run, error) {
	if _, err := s.db.EndRun(ctx, rec.ID, s.cfg.Now(), "detached"); err != nil {
		return conv.Run{}, err
	}
	s.forget(rec.ID)
	s.log.Info("run detached; its process keeps running", "run", rec.ID, "pid", rec.Attach.PID)
	s.changed(rec.ID)
	return s.Get(ctx, rec.ID)
}

// attachedAlive reports whether an attached run's process still runs: the
// pid exists and started when it did at attach time.
func attachedAlive(a store.Attach) bool { return clikit.Alive(a.PID, a.ProcStart) }
