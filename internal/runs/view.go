package runs

import (
	"context"
	"time"

	"lab/internal/claude"
	"lab/internal/conv"
	"lab/internal/store"
)

// view turns a record into the API's run, first folding in what the run's
// spool learned since (a session started or was cleared, the first prompt
// for the title). Its State is a coarse live estimate from the spool and
// the CLI's session registry; the chat layer, which reads the transcript,
// refines it.
func (s *Service) view(ctx context.Context, rec store.RunRecord) conv.Run {
	var st claude.SpoolState
	if rec.Live() {
		var err error
		if st, err = s.spool(rec).Refresh(); err != nil {
			s.log.Warn("run spool unreadable", "run", rec.ID, "err", err)
		}
		s.absorbSpool(ctx, &rec, st)
	}
	run := conv.Run{
		ID: rec.ID, Cwd: rec.Cwd, Title: rec.Title, Model: rec.Model, PermissionMode: rec.PermissionMode,
		SessionID: rec.SessionID, TranscriptPath: rec.TranscriptPath,
		CLIVersion: rec.CLIVersion, CLIVerified: claude.VersionVerified(rec.CLIVersion),
		StartedAt: rec.StartedAt, EndedAt: rec.EndedAt,
	}
	if !rec.Live() {
		run.State = conv.StateEnded
		return run
	}
	run.State, run.Pending = s.liveState(ctx, rec, st)
	return run
}

// absorbSpool stores the session and title the spool reveals.
func (s *Service) absorbSpool(ctx context.Context, rec *store.RunRecord, st claude.SpoolState) {
	changed := false
	if st.SessionID != "" && (st.SessionID != rec.SessionID || st.TranscriptPath != rec.TranscriptPath) {
		if err := s.db.SetRunSession(ctx, rec.ID, st.SessionID, st.TranscriptPath, s.cfg.Now()); err != nil {
			s.log.Warn("record run session", "run", rec.ID, "err", err)
		} else {
			s.log.Info("run session", "run", rec.ID, "session", st.SessionID, "source", st.Source, "transcript", st.TranscriptPath)
			rec.SessionID, rec.TranscriptPath = st.SessionID, st.TranscriptPath
			changed = true
		}
	}
	if rec.TitleAuto && st.LastPrompt != nil {
		if t := promptTitle(st.LastPrompt.Prompt); t != "" {
			if ok, err := s.db.SetRunTitle(ctx, rec.ID, t); err == nil && ok {
				rec.Title, rec.TitleAuto = t, false
				changed = true
			}
		}
	}
	if changed {
		s.changed(rec.ID)
	}
}

// liveState estimates a live run's state: a pending dialog in the spool is
// a question; otherwise the CLI's registry says busy or waiting; without
// it, the order of the last prompt and the last turn end decides.
func (s *Service) liveState(ctx context.Context, rec store.RunRecord, st claude.SpoolState) (conv.State, bool) {
	if len(st.Pending) > 0 {
		return conv.StateQuestion, true
	}
	talked := st.LastPrompt != nil || st.LastStop != nil
	if e, ok := s.registryEntry(ctx, rec); ok && e.SessionID == st.SessionID {
		switch e.Status {
		case "busy":
			return conv.StateWorking, false
		case "waiting":
			return conv.StateNeedsInput, false
		case "idle":
			if talked {
				return conv.StateNeedsInput, false
			}
			return conv.StateIdle, false
		}
	}
	switch {
	case st.LastPrompt != nil && (st.LastStop == nil || st.LastPrompt.Time.After(st.LastStop.Time)):
		return conv.StateWorking, false
	case talked:
		return conv.StateNeedsInput, false
	}
	return conv.StateIdle, false
}

// registryEntry finds the CLI's registry entry for the run's pane process.
func (s *Service) registryEntry(ctx context.Context, rec store.RunRecord) (claude.RegistryEntry, bool) {
	s.mu.Lock()
	pid, ok := s.pids[rec.ID]
	s.mu.Unlock()
	if !ok {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		p, err := s.tmux.PanePID(ctx, paneTarget(rec.TmuxSession))
		if err != nil {
			return claude.RegistryEntry{}, false
		}
		pid = p
		s.mu.Lock()
		s.pids[rec.ID] = pid
		s.mu.Unlock()
	}
	e, ok, err := claude.ReadRegistryEntry(s.cfg.cliHome(), pid)
	if err != nil || !ok || !e.Alive() {
		return claude.RegistryEntry{}, false
	}
	return e, true
}
