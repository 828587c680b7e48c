package chat

import (
	"context"
	"fmt"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Answer answers the run's pending dialog with ans by playing its keystroke
// recipe into the pane. Under the run's lock it re-reads the pending
// dialog and checks ans against it before any key, records the intent,
// then plays the recipe (see play: the keys between two checkpoints in
// one burst), confirming from the pane before every state-changing key —
// and so before the committing one — that the cursor is on the intended
// row. It returns once the dialog shows resolved, so the next action sees
// the new state.
//
// Errors (conv kinds):
//   - EInvalid: ans is malformed for the dialog (the driver's Recipe).
//     No key was sent.
//   - EConflict: no dialog is pending, it has another tool_id, it is
//     already resolved or answered by lab, the pane did not show what a
//     checkpoint expected, or the CLI ignored the committing key (the
//     picker stayed as it was). Nothing was committed; on a checkpoint
//     failure some non-committing keys may have been sent (a toggled box,
//     a moved cursor), and the picker is left for the operator.
//   - EUnavailable: the pane or the pending dialog could not be read, a
//     key could not be sent, or ctx ended (also while waiting for the
//     run's lock).
func (a *Actor) Answer(ctx context.Context, ans conv.Answer) error {
	if ans.ToolID == "" {
		return conv.Errorf(conv.EInvalid, "tool_id is required")
	}
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	log := a.log.With("tool_id", ans.ToolID)

	if a.wasAnswered(ans.ToolID) {
		return conv.Errorf(conv.EConflict, "the dialog %s was already answered", ans.ToolID)
	}
	d, err := a.pending(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the pending dialog")
	}
	capture, err := a.shown(ctx, d, ans.ToolID)
	if err != nil {
		return err
	}
	steps, err := a.drv.Recipe(d, ans, capture)
	if err != nil {
		log.Info("answer refused", "kind", conv.KindOf(err), "reason", err)
		return err
	}
	a.recordIntent(d, ans)
	start := time.Now()
	rewound, err := a.rewind(ctx, capture, steps[0].Check)
	if err != nil {
		a.forgetIntent(ans.ToolID)
		return err
	}
	var shown time.Time
	if d != nil && d.ToolID == ans.ToolID {
		shown = d.Shown
	}
	fresh := capture
	if rewound {
		fresh = "" // the cursor moved since
	}
	committed, err := a.play(ctx, steps, shown, fresh)
	if err != nil {
		if !committed {
			a.forgetIntent(ans.ToolID)
			log.Warn("answer abandoned before committing", "err", err)
			return err
		}
		// The committing key was sent but reported an error (tmux
		// hiccup, ctx ended): the answer may well have landed, so the
		// intent stays and the dialog counts as answered.
		a.markAnswered(ans.ToolID)
		log.Warn("committing key failed", "err", err)
		return conv.Wrap(conv.EUnavailable, err, "the answer's last key may not have been delivered")
	}
	a.lastTook = time.Since(start)
	landed, err := a.settle(ctx, ans.ToolID, lastExpect(steps))
	if !landed {
		// The CLI dropped the committing key: the picker is exactly as
		// before it. Nothing was answered; the operator may try again.
		a.forgetIntent(ans.ToolID)
		log.Warn("the CLI ignored the committing key", "err", err)
		return conv.Wrap(conv.EConflict, err, "the CLI did not take the answer; the picker is still open")
	}
	a.markAnswered(ans.ToolID)
	if err != nil {
		log.Warn("answer sent but the dialog did not show resolved in time", "err", err)
	}
	log.Info("answered", "keys", countKeys(steps), "took", a.lastTook)
	return nil
}

// shown returns the pane once it shows the picker of d, when d is the
// dialog the answer is aimed at: the side channel or the transcript can
// announce a dialog a moment before the CLI draws its picker, and an
// answer sent in that moment waits for it (at most CheckTimeout) rather
// than being refused. Otherwise, or when the picker never shows, it
// returns the pane as it is, for the recipe to judge.
func (a *Actor) shown(ctx context.Context, d *conv.Dialog, toolID string) (string, error) {
	var capture string
	err := a.poll(ctx, func(c string) error {
		capture = c
		if d == nil || d.ToolID != toolID || !d.Pending() || a.drv.Dress(d.Clone(), c) {
			return nil
		}
		return fmt.Errorf("the picker of %s is not on the pane", toolID)
	})
	if err != nil && conv.KindOf(err) == conv.EUnavailable {
		return "", err
	}
	return capture, nil
}

func (a *Actor) recordIntent(d *conv.Dialog, ans conv.Answer) {
	if a.intents != nil {
		a.intents.Record(ans.ToolID, a.drv.Intended(d, ans))
	}
}

func (a *Actor) forgetIntent(toolID string) {
	if a.intents != nil {
		a.intents.Forget(toolID)
	}
}

// settle waits, after the committing key, until the pending dialog is no
// longer toolID: the API's own sign of the answer (the transcript records
// a question's or plan's answer; a permission prompt leaves the pane),
// polled as often as a checkpoint. landed is false only when that never
// happened and the pane still shows exactly the state before the
// committing key (pre): the key was dropped. A resolution that is merely
// slow to reach the transcript counts as landed, with an error to log.
func (a *Actor) settle(ctx context.Context, toolID string, pre agent.Check) (landed bool, err error) {
	deadline := time.Now().Add(a.opts.SettleTimeout)
	for {
		d, err := a.pending(ctx)
		if err == nil && (d == nil || d.ToolID != toolID || !d.Pending()) {
			return true, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			capture, cerr := a.pane.Capture(ctx)
			if cerr == nil && pre != nil && matches(pre, capture) {
				return false, fmt.Errorf("dialog %s still pending after %v with the picker unchanged", toolID, a.opts.SettleTimeout)
			}
			if err != nil {
				return true, err
			}
			return true, fmt.Errorf("dialog %s still pending after %v", toolID, a.opts.SettleTimeout)
		}
		if err := pause(ctx, a.opts.CheckPoll); err != nil {
			continue // ctx ended: decide on the next pass
		}
	}
}

// lastExpect is the checkpoint right before the committing key.
func lastExpect(steps []agent.Step) agent.Check {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Kind == agent.StepExpect {
			return steps[i].Check
		}
	}
	return nil
}

// matches reports whether capture passes c.
func matches(c agent.Check, capture string) bool {
	_, err := c.Match(capture)
	return err == nil
}
