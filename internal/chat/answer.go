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

// Answer answers the run's pending dialog with ans by playing its keystroke
// recipe into the pane. Under the run's lock it re-reads the pending
// dialog and checks ans against it before any key, records the intent,
// then plays the recipe one key at a time (KeyDelay apart), confirming
// from the pane before every state-changing key — and so before the
// committing one — that the cursor is on the intended row.
//
// Errors (conv kinds):
//   - EInvalid: ans is malformed for the dialog (see claude.ValidateAnswer).
//     No key was sent.
//   - EConflict: no dialog is pending, it has another tool_id, it is
//     already resolved or answered by lab, or the pane did not show what a
//     checkpoint expected. Nothing was committed; on a checkpoint failure
//     some non-committing keys may have been sent (a toggled box, a moved
//     cursor), and the picker is left for the operator.
//   - EUnavailable: the pane or the pending dialog could not be read, or ctx
//     ended while waiting for the run's lock.
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
	steps, err := claude.Recipe(d, ans, a.geom)
	if err != nil {
		log.Info("answer refused", "kind", conv.KindOf(err), "reason", err)
		return err
	}
	if a.intents != nil {
		a.intents.Record(ans.ToolID, a.opts.Intend(a.withPlanRows(d), ans))
	}
	start := time.Now()
	if err := a.rewind(ctx, steps[0].Expect); err != nil {
		if a.intents != nil {
			a.intents.Forget(ans.ToolID)
		}
		return err
	}
	committed, err := a.play(ctx, steps)
	if err != nil {
		if !committed {
			if a.intents != nil {
				a.intents.Forget(ans.ToolID)
			}
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
	a.markAnswered(ans.ToolID)
	a.lastTook = time.Since(start)
	log.Info("answered", "keys", countKeys(steps), "took", a.lastTook)
	if err := a.settle(ctx, ans.ToolID); err != nil {
		log.Warn("answer sent but the dialog did not resolve in time", "err", err)
	}
	return nil
}

// withPlanRows gives a plan dialog the picker rows the recipe used, so the
// intended outcome reads the feedback row the same way.
func (a *Actor) withPlanRows(d *conv.Dialog) *conv.Dialog {
	if d.Kind != conv.DialogPlan || len(d.PlanRows) > 0 {
		return d
	}
	c := *d
	c.PlanRows = a.geom.Rows
	return &c
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

// play runs a recipe. committed reports whether the committing key was
// sent (even if sending it returned an error).
func (a *Actor) play(ctx context.Context, steps []claude.Step) (committed bool, err error) {
	for i, s := range steps {
		switch s.Kind {
		case claude.StepExpect:
			if err := a.check(ctx, s.Expect); err != nil {
				return false, err
			}
		case claude.StepKey:
			err := a.pane.SendKey(ctx, s.Key)
			if s.Commit {
				return true, err
			}
			if err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, fmt.Sprintf("sending key %d (%s)", i, s.Key))
			}
			if err := pause(ctx, a.opts.KeyDelay); err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, "answer cancelled")
			}
		case claude.StepPaste:
			if err := a.pane.Paste(ctx, s.Text); err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, "pasting text")
			}
			if err := pause(ctx, a.opts.KeyDelay); err != nil {
				return false, conv.Wrap(conv.EUnavailable, err, "answer cancelled")
			}
		}
	}
	return false, errors.New("chat: recipe has no committing key")
}

// check polls the pane until it shows what e expects. A mismatch that
// outlasts CheckTimeout is a conflict: the TUI is not where the recipe
// believes, so nothing more is pressed.
func (a *Actor) check(ctx context.Context, e *claude.Expect) error {
	err := a.poll(ctx, func(capture string) error { return e.Check(claude.ParseScreen(capture)) })
	if err == nil {
		return nil
	}
	if k := conv.KindOf(err); k == conv.EUnavailable {
		return err
	}
	if ctx.Err() != nil {
		return conv.Wrap(conv.EUnavailable, err, "answer cancelled")
	}
	return conv.Wrap(conv.EConflict, err, "the picker is not where lab expected it; nothing was committed")
}

// settle waits, after the committing key, until the pending dialog is no
// longer toolID, so the next action on the run sees the new state.
func (a *Actor) settle(ctx context.Context, toolID string) error {
	deadline := time.Now().Add(a.opts.SettleTimeout)
	for {
		d, err := a.pending(ctx)
		if err == nil && (d == nil || d.ToolID != toolID || !d.Pending()) {
			return nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return err
			}
			return fmt.Errorf("dialog %s still pending after %v", toolID, a.opts.SettleTimeout)
		}
		if err := pause(ctx, a.opts.CheckPoll*5); err != nil {
			return err
		}
	}
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
