package chat

import (
	"context"
	"path/filepath"

	"lab/internal/conv"
)

// Resume starts a new run continuing an ended run's session, in its folder
// with its provider, model and permission mode. The CLI appends to the
// same transcript, so the new run's chat is the old one with the new turns
// below, at the same seqs. Returns ENotFound, EConflict while the run is
// live or when it never had a session.
func (s *Service) Resume(ctx context.Context, runID string) (conv.Run, error) {
	r, err := s.Get(ctx, runID)
	if err != nil {
		return r, err
	}
	if r.State != conv.StateEnded {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s is still running: there is nothing to resume", runID)
	}
	if r.SessionID == "" {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s never started a conversation, so there is nothing to resume", runID)
	}
	if w := r.Worktree; w != nil && w.Removed != nil {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s worked in a worktree lab has removed (its branch %s stays): there is no folder to resume in", runID, w.Branch)
	}
	return s.Start(ctx, conv.StartRequest{
		Provider: r.Provider, Cwd: r.Cwd, Model: r.Model, PermissionMode: r.PermissionMode,
		Resume: r.SessionID, Title: r.Title,
	})
}

// ResumeSession starts a run continuing a session from history, in the
// folder it ran in. Returns ENotFound, EConflict when the session is
// already live (a run follows it, or a CLI outside lab runs it),
// EInvalid when its folder is unknown or gone.
func (s *Service) ResumeSession(ctx context.Context, sessionID string) (conv.Run, error) {
	sess, err := s.lib.Session(ctx, sessionID)
	if err != nil {
		return conv.Run{}, err
	}
	if sess.RunLive {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s already follows session %s: open it instead", sess.RunID, sessionID)
	}
	if !filepath.IsAbs(sess.ProjectPath) {
		return conv.Run{}, conv.Errorf(conv.EInvalid, "the folder session %s ran in is not recorded in its transcript, so it cannot be resumed", sessionID)
	}
	return s.Start(ctx, conv.StartRequest{Provider: sess.Provider, Cwd: sess.ProjectPath, Resume: sess.ID, Title: sess.Title})
}
