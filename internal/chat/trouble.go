package chat

import (
	"context"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// troubleQuiet is how long a working run's stream must stand still
// before its pane is read for trouble: a turn making headway adds to its
// stream, and reading a pane costs a tmux call.
const troubleQuiet = 3 * time.Second

// watchTrouble reads the pane of every working run whose stream stood
// still, asking its driver whether the CLI shows trouble (an API error it
// is retrying). A change publishes run.messages.changed, so the chat turns
// its working row into the warning, and back.
func (s *Service) watchTrouble() {
	s.mu.Lock()
	lives := make(map[string]*live, len(s.lives))
	for id, l := range s.lives {
		lives[id] = l
	}
	s.mu.Unlock()
	for id, l := range lives {
		l.mu.Lock()
		quiet := l.state == conv.StateWorking && time.Since(l.act.movedAt) >= troubleQuiet
		gen := l.act.gen
		l.mu.Unlock()
		if !quiet {
			continue
		}
		tr, ok := s.driverOf(id).(agent.TroubleReader)
		pane := s.runs.Pane(id)
		if !ok || pane == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), dressTimeout)
		capture, err := pane.Capture(ctx)
		cancel()
		if err != nil {
			continue
		}
		w := tr.Trouble(capture)
		l.mu.Lock()
		changed := l.state == conv.StateWorking && l.act.gen == gen && !sameLifecycle(l.act.trouble, w)
		if changed {
			l.act.trouble = w
		}
		state := l.state
		l.mu.Unlock()
		if changed && s.pub != nil {
			s.pub.Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: id, State: state})
		}
	}
}

func sameLifecycle(a, b *conv.Lifecycle) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
