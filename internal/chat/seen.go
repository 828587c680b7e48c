package chat

import (
	"context"
	"time"

	"lab/internal/conv"
)

// Seen records that a page has the run's chat on screen now, on whichever
// device: a run whose turn ended drops from "your turn" to "seen" until
// something new happens in it (a newer last activity). The mark is the
// later of now and the run's last activity, so a message stamped a little
// ahead of lab's clock is not taken for news. A change of attention is
// published as run.changed, so every other page sees it at once. An ended
// run is left alone. Returns conv.ENotFound.
func (s *Service) Seen(ctx context.Context, id string) error {
	r, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	if r.State == conv.StateEnded || conv.SeenSince(r.SeenAt, r.LastActivity) {
		// Nothing new since the last mark: a later one would change
		// nothing now or for any later activity.
		return nil
	}
	at := time.Now()
	if r.LastActivity != nil && r.LastActivity.After(at) {
		at = *r.LastActivity
	}
	if err := s.runs.MarkSeen(ctx, id, at); err != nil {
		return err
	}
	if r.Attention == conv.AttentionYourTurn && s.pub != nil {
		s.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: id, State: r.State})
	}
	return nil
}
