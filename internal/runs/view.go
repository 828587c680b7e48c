package runs

import (
	"context"

	"lab/internal/agent"
	"lab/internal/conv"
	"lab/internal/store"
)

// view turns a record into the API's run, first folding in what the run's
// side channel learned since (a session started or was cleared, the first
// prompt for the title). Its State is only what the side channel alone
// says (a dialog pending, a prompt submitted); the chat layer, which
// follows the transcript and the pane, overlays the real state.
func (s *Service) view(ctx context.Context, rec store.RunRecord) conv.Run {
	var st agent.SideState
	if rec.Live() {
		if sd, err := s.side(rec); err != nil {
			s.log.Warn("run side channel", "run", rec.ID, "err", err)
		} else if st, err = sd.Read(); err != nil {
			s.log.Warn("run side channel unreadable", "run", rec.ID, "err", err)
		}
		s.absorb(ctx, &rec, st)
	}
	run := conv.Run{
		ID: rec.ID, Provider: rec.Provider, Cwd: rec.Cwd, Title: rec.Title, Model: rec.Model, PermissionMode: rec.PermissionMode,
		SessionID: rec.SessionID, TranscriptPath: rec.TranscriptPath,
		CLIVersion: rec.CLIVersion, CLIVerified: s.verified(rec.Provider, rec.CLIVersion),
		StartedAt: rec.StartedAt, EndedAt: rec.EndedAt, ArchivedAt: rec.ArchivedAt, EndReason: rec.EndReason,
		SeenAt: rec.SeenAt,
	}
	if rec.Attached() {
		run.Attached = &conv.Attachment{PID: rec.Attach.PID, ReadOnly: rec.Attach.ReadOnly}
		if rec.Attach.Pane != "" {
			run.Attached.Pane = rec.Attach.TmuxSession + ":" + rec.Attach.Pane
		} else if rec.Attach.ReadOnly == "" {
			run.Attached.ReadOnly = readOnlyReason(rec.Attach)
		}
	}
	switch {
	case !rec.Live():
		run.State = conv.StateEnded
	case len(st.Pending) > 0:
		run.State, run.Pending = conv.StateQuestion, true
	case !st.PromptAt.IsZero() && st.PromptAt.After(st.TurnEndAt):
		run.State = conv.StateWorking
	case !st.PromptAt.IsZero():
		run.State = conv.StateNeedsInput
	default:
		run.State = conv.StateIdle
	}
	return run
}

// absorb stores the session and title the side channel reveals.
func (s *Service) absorb(ctx context.Context, rec *store.RunRecord, st agent.SideState) {
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
	if rec.TitleAuto && st.Prompt != "" {
		if t := promptTitle(st.Prompt); t != "" {
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
