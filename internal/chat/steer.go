package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Steering a run between turns: a slash command typed at the CLI's
// prompt, and a switch of permission mode or model played as the driver's
// moves. All of them need the CLI idle at an empty prompt with no dialog
// waiting, and are refused before any key otherwise.

// Command types line (a slash command, "/" + name and its arguments) at
// the prompt and submits it. Before Enter it checks that the CLI's own
// command menu, if it shows, has its cursor on name: Enter then runs
// exactly that command, never another the menu offers.
//
// Errors: EConflict (a dialog waits, the agent works, the prompt is not
// shown or holds text, the menu picks another command, the CLI did not
// take it; nothing submitted), EUnavailable (the pane could not be read).
func (a *Actor) Command(ctx context.Context, name, line string) error {
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	if _, err := a.idle(ctx); err != nil {
		return err
	}
	if err := a.submit(ctx, name, line); err != nil {
		return err
	}
	// A command that starts a new session redraws the screen; the next
	// action should find its prompt (or the work the command started).
	if err := a.poll(ctx, a.settledScreen); err != nil {
		a.log.Warn("after the command the CLI shows neither its prompt nor work", "command", name, "err", err)
	}
	a.log.Info("command sent", "command", name)
	return nil
}

// settledScreen accepts a pane showing the CLI's prompt or its work.
func (a *Actor) settledScreen(capture string) error {
	if _, ok := a.drv.Prompt(capture); ok {
		return nil
	}
	if a.drv.Look(capture).Kind == agent.LookBusy {
		return nil
	}
	return fmt.Errorf("neither the prompt nor work on the pane")
}

// Switch plays the moves plan makes from the pane (a mode or model
// switch), each checked on the pane: it returns only once the CLI shows
// the switch done. what names the switch in errors ("mode plan").
//
// Errors: EInvalid (plan refused the target; nothing typed), EConflict
// (as Command, or the pane did not confirm a move: the switch may be
// partly done, and the error says where it stopped), EUnavailable.
func (a *Actor) Switch(ctx context.Context, what string, plan func(capture string) ([]agent.Move, error)) error {
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	capture, err := a.idle(ctx)
	if err != nil {
		return err
	}
	moves, err := plan(capture)
	if err != nil {
		return err
	}
	for i, m := range moves {
		if err := a.move(ctx, m); err != nil {
			a.log.Warn("switch stopped", "switch", what, "move", i, "err", err)
			a.leave(ctx)
			if conv.KindOf(err) == conv.EConflict && i > 0 {
				return conv.Wrap(conv.EConflict, err, fmt.Sprintf("the switch to %s stopped after %d of %d steps", what, i, len(moves)))
			}
			return err
		}
	}
	a.log.Info("switched", "switch", what, "moves", len(moves))
	return nil
}

// leave closes what a switch that stopped left open (a picker), so the
// run is not left blocked on a screen nobody asked for: one interrupt key
// when the CLI is not at its prompt.
func (a *Actor) leave(ctx context.Context) {
	capture, err := a.pane.Capture(ctx)
	if err != nil || a.drv.Look(capture).Kind == agent.LookPrompt {
		return
	}
	if err := a.pane.SendKeys(ctx, a.drv.InterruptKey()); err != nil {
		a.log.Warn("could not close the screen the switch left", "err", err)
	}
}

// idleGrace is how long idle waits for a busy CLI to settle (at most
// CheckTimeout): the transcript records a turn's last words a moment
// before the CLI stops showing it works.
const idleGrace = 3 * time.Second

// idle checks that the CLI waits at an empty prompt with no dialog
// pending and returns the pane. A CLI seen working gets idleGrace to
// finish.
func (a *Actor) idle(ctx context.Context) (string, error) {
	d, err := a.pending(ctx)
	if err != nil {
		return "", conv.Wrap(conv.EUnavailable, err, "cannot read the pending dialog")
	}
	if d.Pending() {
		return "", conv.Errorf(conv.EConflict, "a dialog is waiting for an answer; answer it or interrupt first")
	}
	var capture string
	deadline := time.Now().Add(min(idleGrace, a.opts.CheckTimeout))
	for {
		capture, err = a.pane.Capture(ctx)
		if err != nil {
			return "", conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
		}
		look := a.drv.Look(capture).Kind
		if look == agent.LookPrompt {
			break
		}
		if time.Now().After(deadline) {
			if look == agent.LookBusy {
				return "", conv.Errorf(conv.EConflict, "the agent is working; wait for it to finish or interrupt it first")
			}
			return "", conv.Errorf(conv.EConflict, "the CLI is not showing its prompt (a picker or another screen has the focus)")
		}
		if err := pause(ctx, a.opts.CheckPoll); err != nil {
			return "", conv.Wrap(conv.EUnavailable, err, "cancelled")
		}
	}
	box, ok := a.drv.Prompt(capture)
	if !ok {
		return "", conv.Errorf(conv.EConflict, "the CLI is not showing its prompt")
	}
	if !box.Empty() {
		return "", conv.Errorf(conv.EConflict, "the prompt already holds text typed at the terminal")
	}
	return capture, nil
}

// submit pastes line into the empty prompt, checks the command menu and
// presses Enter (see enter). Whatever stops it before Enter empties the
// prompt again.
func (a *Actor) submit(ctx context.Context, name, line string) error {
	if err := a.pane.Paste(ctx, line); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "pasting the command")
	}
	if err := a.poll(ctx, a.holds(line)); err != nil {
		a.clearPrompt(ctx)
		return conv.Wrap(conv.EConflict, err, "the command did not appear in the prompt; it was not submitted")
	}
	if err := a.poll(ctx, a.menuOn(name)); err != nil {
		a.clearPrompt(ctx)
		return conv.Wrap(conv.EConflict, err, "the CLI's command menu does not pick /"+name+"; nothing was submitted")
	}
	if err := pause(ctx, a.opts.KeyDelay); err != nil {
		a.clearPrompt(ctx)
		return conv.Wrap(conv.EUnavailable, err, "command cancelled")
	}
	_, err := a.enter(ctx, a.submitted(line), "command")
	return err
}

// menuOn accepts a pane whose command menu, if one shows, has its cursor
// on name.
func (a *Actor) menuOn(name string) func(string) error {
	return func(capture string) error {
		if got, open := a.drv.Menu(capture); open && got != name {
			return fmt.Errorf("the menu's cursor is on /%s", got)
		}
		return nil
	}
}

// clearPrompt empties the prompt lab typed a command into, key by key
// with the pane checked before each, as a withdrawn reply is; best effort.
func (a *Actor) clearPrompt(ctx context.Context) {
	capture, err := a.pane.Capture(ctx)
	if err == nil {
		if box, ok := a.drv.Prompt(capture); ok {
			err = a.clearBox(ctx, box)
		}
	}
	if err != nil {
		a.log.Warn("could not empty the prompt", "err", err)
	}
}

// move plays one move and waits for the pane to confirm it.
func (a *Actor) move(ctx context.Context, m agent.Move) error {
	switch {
	case m.Command != "":
		name, _, _ := strings.Cut(strings.TrimPrefix(m.Command, "/"), " ")
		if err := a.submit(ctx, name, m.Command); err != nil {
			return err
		}
	case m.Key != "":
		return a.cycle(ctx, m)
	case m.Pick != nil:
		capture, err := a.pane.Capture(ctx)
		if err != nil {
			return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
		}
		steps, err := m.Pick(capture)
		if err != nil {
			return err
		}
		if len(steps) > 0 {
			if _, err := a.play(ctx, steps, time.Time{}, ""); err != nil {
				return err
			}
		}
	}
	return a.settled(ctx, m.Settled)
}

// settled polls until the pane passes c; a pane that never does is a
// conflict.
func (a *Actor) settled(ctx context.Context, c agent.Check) error {
	if c == nil {
		return nil
	}
	err := a.poll(ctx, func(capture string) error {
		_, err := c.Match(capture)
		return err
	})
	if err != nil && conv.KindOf(err) != conv.EUnavailable {
		return conv.Wrap(conv.EConflict, err, "the CLI did not confirm "+c.What())
	}
	return err
}

// cycle presses m.Key until the pane passes m.Settled, at most m.Times
// times, each press checked to change what the pane shows. Coming back to
// where it started means the cycle does not offer the target.
func (a *Actor) cycle(ctx context.Context, m agent.Move) error {
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
	}
	start, err := m.Settled.Match(capture)
	if err == nil {
		return nil
	}
	at := start
	for range m.Times {
		if err := a.pane.SendKeys(ctx, m.Key); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "sending "+m.Key)
		}
		var done bool
		prev := at
		err := a.poll(ctx, func(capture string) error {
			id, err := m.Settled.Match(capture)
			at, done = id, err == nil
			if id == prev && !done {
				return fmt.Errorf("the screen still shows %q", id)
			}
			return nil
		})
		if err != nil {
			if conv.KindOf(err) == conv.EUnavailable {
				return err
			}
			return conv.Wrap(conv.EConflict, err, "the CLI did not take "+m.Key)
		}
		if done {
			return nil
		}
		if at == start {
			return conv.Errorf(conv.EConflict, "%s cycles back to %q without reaching %s", m.Key, start, m.Settled.What())
		}
		if err := pause(ctx, a.opts.KeyDelay); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "switch cancelled")
		}
	}
	return conv.Errorf(conv.EConflict, "%d presses of %s did not reach %s", m.Times, m.Key, m.Settled.What())
}
