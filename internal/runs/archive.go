package runs

import (
	"context"
	"time"

	"lab/internal/conv"
)

// SetArchived archives an ended run (hides it from List) or unarchives
// it. Doing it twice is harmless. Returns conv.ENotFound, and
// conv.EConflict for a run still running.
func (s *Service) SetArchived(ctx context.Context, id string, archived bool) (conv.Run, error) {
	var at = s.cfg.Now()
	ap := &at
	if !archived {
		ap = nil
	}
	changed, err := s.db.SetRunArchived(ctx, id, ap)
	if err != nil {
		return conv.Run{}, err
	}
	if changed {
		s.log.Info("run archived", "run", id, "archived", archived)
		s.changed(id)
	}
	return s.Get(ctx, id)
}

// MarkSeen records that the operator has read the run up to at (never
// moving back). Returns conv.ENotFound.
func (s *Service) MarkSeen(ctx context.Context, id string, at time.Time) error {
	return s.db.SetRunSeen(ctx, id, at)
}

// ListArchived returns the archived runs, most recently archived first.
func (s *Service) ListArchived(ctx context.Context) ([]conv.Run, error) {
	recs, err := s.db.ListArchivedRuns(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]conv.Run, 0, len(recs))
	for _, rec := range recs {
		out = append(out, s.view(ctx, rec))
	}
	s.dressWorktrees(ctx, out)
	return out, nil
}
