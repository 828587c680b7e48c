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
// It applies to the dialog's own picker, counted from when lab first saw
// it (by the live view, conv.Dialog.Shown, when it was up before the
// answer), so a picker the operator has been reading for a while costs
// nothing. A screen the answer itself brings up has ScreenGrace.
const DefaultPickerGrace = 300 * time.Millisecond

// DefaultScreenGrace is the grace of a screen the answer itself brought
// up: a form's next question, the review, Codex's input box after "No,
// stay in Plan mode". None: with no grace at all, no key on such a screen
// was lost in the measurements of docs/benchmarks.md ("Answer speed").
const DefaultScreenGrace time.Duration = -1

// play runs a recipe. committed reports whether the committing key was
// sent (even if sending it returned an error).
//
// The keys between two checkpoints go to the pane in one call, which the
// CLI reads as one burst (docs/claude-code-observed.md), or one by one
// KeyDelay apart when KeyDelay is set; the pane is read only at the
// recipe's checkpoints. The committing key always goes alone, right after
// the checkpoint before it. A key or paste that acts on the dialog's
// picker (the first checkpoint's screen) waits until it has shown for
// PickerGrace, counted from shown when not zero (when the live view first
// saw it); on a screen the answer brought up, for ScreenGrace. capture,
// when not empty, is the pane as the answer just read it (no key sent
// since), which the first checkpoint tries before reading the pane again.
func (a *Actor) play(ctx context.Context, steps []agent.Step, shown time.Time, capture string) (committed bool, err error) {
	// seen is when each screen (a question, the review, the plan picker)
	// first showed on a capture.
	seen := map[string]time.Time{}
	current, first := "", ""
	for i := 0; i < len(steps); {
		s := steps[i]
		switch s.Kind {
		case agent.StepExpect:
			id, err := a.check(ctx, s.Check, seen, capture)
			capture = "" // stale once keys were sent
			if err != nil {
				return false, err
			}
			if first == "" {
				first = id
				if !shown.IsZero() && shown.Before(seen[id]) {
					seen[id] = shown
				}
			}
			current = id
			i++
			continue
		case agent.StepPaste:
			if err := a.graceFor(ctx, s.Acts, current == first, seen[current]); err != nil {
				return false, err
			}
			if err := a.pane.Paste(ctx, s.Text); err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, "pasting text")
			}
			if err := a.pace(ctx); err != nil {
				return false, err
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
		if err := a.graceFor(ctx, acts, current == first, seen[current]); err != nil {
			return false, err
		}
		err := a.send(ctx, keys)
		if run[0].Commit {
			return true, err
		}
		if err != nil {
			return false, conv.Wrap(conv.EUnavailable, err, fmt.Sprintf("sending keys %d-%d (%v)", i, i+len(run)-1, keys))
		}
		i += len(run)
	}
	return false, errNoCommit
}

// errNoCommit is what play returns for steps that end without a
// committing key (a reply composed, waiting for its Enter).
var errNoCommit = errors.New("chat: recipe has no committing key")

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
// first seen at since has shown for PickerGrace (the dialog's picker) or
// ScreenGrace (a screen the answer brought up).
func (a *Actor) graceFor(ctx context.Context, acts, dialogs bool, since time.Time) error {
	grace := a.opts.ScreenGrace
	if dialogs {
		grace = a.opts.PickerGrace
	}
	if !acts || grace <= 0 {
		return nil
	}
	if err := pause(ctx, grace-time.Since(since)); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "answer cancelled")
	}
	return nil
}

// check polls the pane until it shows what e expects, noting when each
// screen was first seen, and returns the matching screen's id; a fresh
// capture passed in (no key sent since it was taken) is tried first. A
// mismatch that outlasts CheckTimeout is a conflict: the TUI is not where
// the recipe believes, so nothing more is pressed.
func (a *Actor) check(ctx context.Context, e agent.Check, seen map[string]time.Time, fresh string) (string, error) {
	var id string
	look := func(capture string) error {
		screen, err := e.Match(capture)
		id = screen
		if _, ok := seen[id]; !ok {
			seen[id] = time.Now()
		}
		return err
	}
	if fresh != "" && look(fresh) == nil {
		return id, nil
	}
	err := a.poll(ctx, look)
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
// that follows catches it. capture is the pane as the answer found it;
// rewound says Up keys were sent.
func (a *Actor) rewind(ctx context.Context, capture string, fresh agent.Check) (rewound bool, err error) {
	up := a.drv.Rewind(capture, fresh)
	if up <= 0 {
		return false, nil
	}
	a.log.Info("cursor moved at the terminal; rewinding to row 1", "rows_up", up)
	keys := make([]string, up)
	for i := range keys {
		keys[i] = "Up"
	}
	if err := a.send(ctx, keys); err != nil {
		return true, conv.Wrap(conv.EUnavailable, err, "sending Up")
	}
	return true, nil
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
