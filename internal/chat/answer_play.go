package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// DefaultPickerGrace is how long a picker screen must have been on the
// pane before lab presses a key that acts on it (Space, a paste, Enter).
// The real CLI 2.1.328 drops an Enter that arrives within ~100-150 ms of
// a picker appearing (a guard against a prompt's Enter falling through to
// the new picker), while arrows are taken at once; see
// docs/benchmarks.md ("Answer pacing"). Twice the observed bound.
const DefaultPickerGrace = 300 * time.Millisecond

// play runs a recipe. committed reports whether the committing key was
// sent (even if sending it returned an error).
func (a *Actor) play(ctx context.Context, steps []agent.Step) (committed bool, err error) {
	// seen is when each screen (a question, the review, the plan picker)
	// first showed on a capture during this answer.
	seen := map[string]time.Time{}
	var current string
	for i, s := range steps {
		switch s.Kind {
		case agent.StepExpect:
			id, err := a.check(ctx, s.Check, seen)
			if err != nil {
				return false, err
			}
			current = id
		case agent.StepKey, agent.StepPaste:
			if s.Acts {
				if err := pause(ctx, a.opts.PickerGrace-time.Since(seen[current])); err != nil {
					return false, conv.Wrap(conv.EUnavailable, err, "answer cancelled")
				}
			}
			if s.Kind == agent.StepPaste {
				if err := a.pane.Paste(ctx, s.Text); err != nil {
					return false, conv.Wrap(conv.EUnavailable, err, "pasting text")
				}
			} else {
				err := a.pane.SendKey(ctx, s.Key)
				if s.Commit {
					return true, err
				}
				if err != nil {
					return false, conv.Wrap(conv.EUnavailable, err, fmt.Sprintf("sending key %d (%s)", i, s.Key))
				}
			}
			if err := pause(ctx, a.opts.KeyDelay); err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, "answer cancelled")
			}
		}
	}
	return false, errNoCommit
}

// errNoCommit is what play returns for steps that end without a
// committing key (a reply composed, waiting for its Enter).
var errNoCommit = errors.New("chat: recipe has no committing key")

// check polls the pane until it shows what e expects, noting when each
// screen was first seen, and returns the matching screen's id. A mismatch
// that outlasts CheckTimeout is a conflict: the TUI is not where the
// recipe believes, so nothing more is pressed.
func (a *Actor) check(ctx context.Context, e agent.Check, seen map[string]time.Time) (string, error) {
	var id string
	err := a.poll(ctx, func(capture string) error {
		screen, err := e.Match(capture)
		id = screen
		if _, ok := seen[id]; !ok {
			seen[id] = time.Now()
		}
		return err
	})
	if err == nil {
		return id, nil
	}
	if k := conv.KindOf(err); k == conv.EUnavailable {
		return "", err
	}
	if ctx.Err() != nil {
		return "", conv.Wrap(conv.EUnavailable, err, "answer cancelled")
	}
	return "", conv.Wrap(conv.EConflict, err, "the picker is not where lab expected it; nothing was committed")
}

// rewind brings the cursor back to row 1 when someone moved it at the
// terminal but changed nothing else (the driver counts the rows to climb,
// so Up never wraps); if the pane moved meanwhile, the fresh checkpoint
// that follows catches it.
func (a *Actor) rewind(ctx context.Context, fresh agent.Check) error {
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
	}
	up := a.drv.Rewind(capture, fresh)
	if up <= 0 {
		return nil
	}
	a.log.Info("cursor moved at the terminal; rewinding to row 1", "rows_up", up)
	for range up {
		if err := a.pane.SendKey(ctx, "Up"); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "sending Up")
		}
		if err := pause(ctx, a.opts.KeyDelay); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "answer cancelled")
		}
	}
	return nil
}

func countKeys(steps []agent.Step) int {
	n := 0
	for _, s := range steps {
		if s.Kind != agent.StepExpect {
			n++
		}
	}
	return n
}
