package chat

import (
	"context"

	"lab/internal/conv"
)

// External lists the CLI processes on this machine lab did not start,
// each marked Pending when its transcript ends in a dialog waiting for an
// answer (read through the library's cached folds, so a list refreshed
// every few seconds folds only what the transcripts gained).
func (s *Service) External(ctx context.Context) ([]conv.ExternalSession, error) {
	list, err := s.runs.External(ctx)
	if err != nil || s.lib == nil {
		return list, err
	}
	for i := range list {
		e := &list[i]
		if e.TranscriptPath == "" {
			continue
		}
		if p, err := s.lib.PageOf(e.Provider, e.TranscriptPath, conv.Query{Limit: 1}); err == nil {
			e.Pending = p.PendingDialog.Pending()
		}
	}
	return list, nil
}

// Attach makes a new run follow the CLI process pid (see runs.Attach) and
// follows it live like a run lab started: its transcript is folded as it
// grows, its pending dialog comes from the transcript and the pane.
func (s *Service) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	r, err := s.runs.Attach(ctx, provider, pid)
	if err != nil {
		return r, err
	}
	s.follow(r, false)
	if s.pub != nil {
		s.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: r.ID, State: r.State})
	}
	return s.Get(ctx, r.ID)
}
