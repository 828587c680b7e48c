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
//
// It is counted from when lab first saw the screen: for the dialog's own
// picker, from when the live view first saw it on the pane
// (conv.Dialog.Shown), so a picker the operator has been reading for a
// while costs nothing; a screen the answer itself brings up (a form's
// next question, its review) waits it out.
const DefaultPickerGrace = 300 * time.Millisecond

// play runs a recipe. committed reports whether the committing key was
// sent (even if sending it returned an error), on the screen named at
// (the one its checkpoint passed on).
//
// The keys between two checkpoints go to the pane in one call, which the
// CLI reads as one burst (docs/claude-code-observed.md), or one by one
// KeyDelay apart when KeyDelay is set; the pane is read only at the
// recipe's checkpoints. The committing key always goes alone, right after
// the checkpoint before it. A key or paste that acts on the picker waits
// until the current screen has shown for PickerGrace; shown, when not
// zero, is when the dialog's picker was first seen on the pane, which the
// first checkpoint's screen counts from.
func (a *Actor) play(ctx context.Context, steps []agent.Step, shown time.Time) (at string, committed bool, err error) {
	// seen is when each screen (a question, the review, the plan picker)
	// first showed on a capture.
	seen := map[string]time.Time{}
	current, checked := "", false
	for i := 0; i < len(steps); {
		s := steps[i]
		switch s.Kind {
		case agent.StepExpect:
			id, err := a.check(ctx, s.Check, seen)
			if err != nil {
				return "", false, err
			}
			if !checked && !shown.IsZero() && shown.Before(seen[id]) {
				seen[id] = shown
			}
			current, checked = id, true
			i++
			continue
		case agent.StepPaste:
			if err := a.graceFor(ctx, s.Acts, seen[current]); err != nil {
				return "", false, err
			}
			if err := a.pane.Paste(ctx, s.Text); err != nil {
				return "", false, conv.Wrap(conv.EUnavailable, err, "pasting text")
			}
			if err := a.pace(ctx); err != nil {
				return "", false, err
			}
			i++
			continue
		}
		run := keyRun(steps[i:])
		acts := false
		keys := make([]string, len(run))
		for k, r := range run {
			acts = acts || r.Acts
			keys[k] = r.Key
		}
		if err := a.graceFor(ctx, acts, seen[current]); err != nil {
			return "", false, err
		}
		err := a.send(ctx, keys)
		if run[0].Commit {
			return current, true, err
		}
		if err != nil {
			return "", false, conv.Wrap(conv.EUnavailable, err, fmt.Sprintf("sending keys %d-%d (%v)", i, i+len(run)-1, keys))
		}
		i += len(run)
	}
	return "", false, errors.New("chat: recipe has no committing key")
}

// keyRun is the run of keys steps starts with: up to the next checkpoint,
// paste or committing key. A committing key is a run of its own.
func keyRun(steps []agent.Step) []agent.Step {
	if steps[0].Commit {
		return steps[:1]
	}
	n := 1
	for n < len(steps) && steps[n].Kind == agent.StepKey && !steps[n].Commit {
		n++
	}
	return steps[:n]
}

// send types keys: in one call, or one by one KeyDelay apart.
func (a *Actor) send(ctx context.Context, keys []string) error {
	if a.opts.KeyDelay <= 0 {
		return a.pane.SendKeys(ctx, keys...)
	}
	for i, k := range keys {
		if i > 0 {
			if err := a.pace(ctx); err != nil {
				return err
			}
		}
		if err := a.pane.SendKeys(ctx, k); err != nil {
			return err
		}
	}
	return a.pace(ctx)
}

// pace pauses KeyDelay after a key or paste when keys go one by one.
func (a *Actor) pace(ctx context.Context) error {
	if a.opts.KeyDelay <= 0 {
		return nil
	}
	if err := pause(ctx, a.opts.KeyDelay); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "answer cancelled")
	}
	return nil
}

// graceFor waits, before a key that acts on the picker, until the screen
// first seen at since has shown for PickerGrace.
func (a *Actor) graceFor(ctx context.Context, acts bool, since time.Time) error {
	if !acts {
		return nil
	}
	if err := pause(ctx, a.opts.PickerGrace-time.Since(since)); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "answer cancelled")
	}
	return nil
}

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
// that follows catches it. capture is the pane as the answer found it.
func (a *Actor) rewind(ctx context.Context, capture string, fresh agent.Check) error {
	up := a.drv.Rewind(capture, fresh)
	if up <= 0 {
		return nil
	}
	a.log.Info("cursor moved at the terminal; rewinding to row 1", "rows_up", up)
	keys := make([]string, up)
	for i := range keys {
		keys[i] = "Up"
	}
	if err := a.send(ctx, keys); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "sending Up")
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
