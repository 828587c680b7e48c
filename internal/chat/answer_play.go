package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"lab/internal/claude"
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
func (a *Actor) play(ctx context.Context, steps []claude.Step) (committed bool, err error) {
	// seen is when each screen (a question, the review, the plan picker)
	// first showed on a capture during this answer.
	seen := map[string]time.Time{}
	var current string
	for i, s := range steps {
		switch s.Kind {
		case claude.StepExpect:
			id, err := a.check(ctx, s.Expect, seen)
			if err != nil {
				return false, err
			}
			current = id
		case claude.StepKey, claude.StepPaste:
			if actsOnPicker(s) {
				if err := pause(ctx, a.opts.PickerGrace-time.Since(seen[current])); err != nil {
					return false, conv.Wrap(conv.EUnavailable, err, "answer cancelled")
				}
			}
			if s.Kind == claude.StepPaste {
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
	return false, errors.New("chat: recipe has no committing key")
}

// actsOnPicker reports whether a step changes the picker's state (rather
// than moving its cursor), so it must wait out the picker grace.
func actsOnPicker(s claude.Step) bool {
	return s.Kind == claude.StepPaste || s.Key == "Enter" || s.Key == "Space"
}

// screenID names the screen a capture shows, for the picker grace: the
// cursor moving does not make a new screen, a form advancing does.
func screenID(s *claude.Screen) string {
	return string(s.Kind) + "\x00" + s.Question
}

// check polls the pane until it shows what e expects, noting when each
// screen was first seen, and returns the matching screen's id. A mismatch
// that outlasts CheckTimeout is a conflict: the TUI is not where the
// recipe believes, so nothing more is pressed.
func (a *Actor) check(ctx context.Context, e *claude.Expect, seen map[string]time.Time) (string, error) {
	var id string
	err := a.poll(ctx, func(capture string) error {
		s := claude.ParseScreen(capture)
		id = screenID(s)
		if _, ok := seen[id]; !ok {
			seen[id] = time.Now()
		}
		return e.Check(s)
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
// terminal but changed nothing else: the recipe's first checkpoint (fresh)
// shows the same picker, with the cursor on another row, nothing ticked
// and nothing typed. It climbs exactly as many rows as the pane shows
// above the cursor, so Up never wraps; if the pane moved meanwhile, the
// fresh checkpoint that follows catches it. Anything else is left for
// that checkpoint to judge.
func (a *Actor) rewind(ctx context.Context, fresh *claude.Expect) error {
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
	}
	s := claude.ParseScreen(capture)
	if fresh.Check(s) == nil || s.Kind != fresh.Kind || s.Kind == claude.ScreenReview {
		return nil
	}
	if fresh.Question != "" && !claude.SameText(s.Question, fresh.Question) {
		return nil
	}
	if fresh.Rows > 0 && s.Numbered() != fresh.Rows {
		return nil
	}
	up := -1
	for i, r := range s.Rows {
		if r.Box == claude.Checked {
			return nil
		}
		if r.Cursor {
			up = i
		}
	}
	if up <= 0 || !a.freeTextUntouched(s) {
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

// freeTextUntouched reports whether the picker's free-text row still shows
// its placeholder: the row before "Chat about this" on a question, the
// feedback row on a plan.
func (a *Actor) freeTextUntouched(s *claude.Screen) bool {
	if s.Kind == claude.ScreenPlan {
		f := a.geom.Feedback
		return f < len(s.Rows) && s.Rows[f].Label == a.geom.Rows[f]
	}
	n := s.Numbered()
	for _, r := range s.Rows {
		if r.Number == n-1 {
			return strings.HasPrefix(r.Label, "Type something")
		}
	}
	return false
}

func countKeys(steps []claude.Step) int {
	n := 0
	for _, s := range steps {
		if s.Kind != claude.StepExpect {
			n++
		}
	}
	return n
}
