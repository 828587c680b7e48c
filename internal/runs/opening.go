package runs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lab/internal/agent"
	"lab/internal/store"
)

const (
	// untilWait is how long a key with Until has to show its effect
	// before it is sent again.
	untilWait = 2 * time.Second
	// untilTries bounds how often such a key is sent.
	untilTries = 8
	// keyPause follows each key, as the chat's answers do.
	keyPause = 150 * time.Millisecond
)

// open plays a new run's opening (agent.Command.Opening) into its pane:
// what a start flag cannot do, such as entering a mode only a key
// reaches, and then the first prompt. It gives up after startWatch; a
// failure is logged (the run goes on in its default mode, and the
// operator sees its state in the chat).
func (s *Service) open(rec store.RunRecord, steps []agent.Step) {
	ctx, cancel := context.WithTimeout(context.Background(), startWatch)
	defer cancel()
	if err := s.playOpening(ctx, paneTarget(rec.TmuxSession), steps); err != nil {
		s.log.Warn("run opening failed; the run goes on as the CLI started", "run", rec.ID, "err", err)
		return
	}
	s.log.Info("run opening played", "run", rec.ID, "steps", len(steps))
}

// playOpening plays steps: each checkpoint is polled until the pane passes
// it; each key or paste waits until its screen has shown for startGrace
// (the CLI drops keys that arrive as a screen appears) and, with Until,
// is sent again while the pane does not show its effect.
func (s *Service) playOpening(ctx context.Context, target string, steps []agent.Step) error {
	seen := map[string]time.Time{}
	var current string
	for i, st := range steps {
		switch st.Kind {
		case agent.StepExpect:
			id, err := s.waitCheck(ctx, target, st.Check, seen)
			if err != nil {
				return fmt.Errorf("step %d (%s): %w", i, st, err)
			}
			current = id
		case agent.StepKey, agent.StepPaste:
			if st.Acts {
				pause(ctx, startGrace-time.Since(seen[current]))
			}
			if err := s.sendUntil(ctx, target, st); err != nil {
				return fmt.Errorf("step %d (%s): %w", i, st, err)
			}
			if st.Commit {
				return nil
			}
		}
	}
	return nil
}

// waitCheck polls the pane until c passes, noting when each screen was
// first seen, and returns the passing screen's id.
func (s *Service) waitCheck(ctx context.Context, target string, c agent.Check, seen map[string]time.Time) (string, error) {
	var last error
	for {
		capture, err := s.tmux.Capture(ctx, target)
		if err != nil {
			return "", err
		}
		id, err := c.Match(capture)
		if _, ok := seen[id]; !ok {
			seen[id] = time.Now()
		}
		if err == nil {
			return id, nil
		}
		last = err
		if ctx.Err() != nil {
			return "", errors.Join(ctx.Err(), last)
		}
		pause(ctx, startPoll)
	}
}

// sendUntil sends a step's key or paste; with Until, again while the pane
// has not shown its effect within untilWait.
func (s *Service) sendUntil(ctx context.Context, target string, st agent.Step) error {
	for try := 1; ; try++ {
		var err error
		if st.Kind == agent.StepPaste {
			err = s.tmux.Paste(ctx, target, st.Text)
		} else {
			err = s.tmux.SendKey(ctx, target, st.Key)
		}
		if err != nil {
			return err
		}
		pause(ctx, keyPause)
		if st.Until == nil {
			return nil
		}
		wait, cancel := context.WithTimeout(ctx, untilWait)
		_, err = s.waitCheck(wait, target, st.Until, map[string]time.Time{})
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || try == untilTries {
			return fmt.Errorf("the CLI did not take %s: %w", st, err)
		}
		s.log.Info("key not taken yet; sending it again", "step", st.String(), "try", try)
	}
}
