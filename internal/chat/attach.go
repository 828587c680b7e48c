package chat

import (
	"context"

	"lab/internal/conv"
)

// External lists the CLI processes on this machine lab did not start.
func (s *Service) External(ctx context.Context) ([]conv.ExternalSession, error) {
	return s.runs.External(ctx)
}

// Attach makes a new run follow the CLI process pid (see runs.Attach) and
// follows it live like a run lab started: its transcript is folded as it
// grows, its pending dialog comes from the transcript and the pane.
func (s *Service) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	r, err := s.runs.Attach(ctx, provider, pid)
	if err != nil {
		return r, err
	}
	s.follow(r)
	if s.pub != nil {
		s.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: r.ID, State: r.State})
	}
	return s.Get(ctx, r.ID)
}
