package chat

import (
	"context"
	"fmt"
	"slices"

	"lab/internal/conv"
	"lab/internal/tmux"
)

// The terminal view: the operator watches a run's pane as the CLI draws
// it and, when they choose to, types into it. Watching goes around the
// actor (it only reads); typing goes through it, so keys never land in
// the middle of an answer's recipe.

// Limits of one terminal input: a few lines typed on a phone, a short
// burst of keys.
const (
	MaxTerminalText = 4096
	MaxTerminalKeys = 64
)

// CheckTerminalInput refuses input the terminal view may not send: a key
// outside conv.TerminalKeys, text with a control character (keys that act
// are sent by name), nothing at all, or too much. conv.EInvalid,
// conv.ETooLarge.
func CheckTerminalInput(in conv.TerminalInput) error {
	if in.Text == "" && len(in.Keys) == 0 {
		return conv.Errorf(conv.EInvalid, "send text, keys or both")
	}
	if len(in.Text) > MaxTerminalText {
		return conv.Errorf(conv.ETooLarge, "the text is %d bytes; at most %d at once", len(in.Text), MaxTerminalText)
	}
	if len(in.Keys) > MaxTerminalKeys {
		return conv.Errorf(conv.ETooLarge, "%d keys; at most %d at once", len(in.Keys), MaxTerminalKeys)
	}
	if in.Text != "" {
		if err := tmux.CheckText(in.Text); err != nil {
			return conv.Wrap(conv.EInvalid, err, "the text cannot be typed")
		}
	}
	for i, k := range in.Keys {
		if !slices.Contains(conv.TerminalKeys, k) {
			return conv.Errorf(conv.EInvalid, "keys[%d]: %q is not a key the terminal sends; want one of %v", i, k, conv.TerminalKeys)
		}
	}
	return nil
}

// Terminal types in's text, then presses its keys, into the run's pane,
// holding the run's lock, with the actor's pause after each. It checks
// nothing about the screen: the operator sees it.
//
// Errors: EInvalid (nothing sent), EUnavailable when a key could not be
// sent (the ones before it were), EConflict from an attached run's pane
// check.
func (a *Actor) Terminal(ctx context.Context, in conv.TerminalInput) error {
	if err := CheckTerminalInput(in); err != nil {
		return err
	}
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	send := func(what string, f func() error) error {
		if err := f(); err != nil {
			if conv.KindOf(err) == conv.EConflict {
				return err
			}
			return conv.Wrap(conv.EUnavailable, err, "typing "+what+" into the terminal")
		}
		return pause(ctx, a.opts.KeyDelay)
	}
	if in.Text != "" {
		if err := send("text", func() error { return a.pane.Type(ctx, in.Text) }); err != nil {
			return err
		}
	}
	for i, k := range in.Keys {
		if err := send(fmt.Sprintf("key %d (%s)", i, k), func() error { return a.pane.SendKeys(ctx, k) }); err != nil {
			return err
		}
	}
	return nil
}

// TerminalInput types into a live run's pane (Actor.Terminal) and has its
// screen looked at again soon: what the keys did may be an alert gone.
// EConflict for an ended run or one lab can only follow.
func (s *Service) TerminalInput(ctx context.Context, id string, in conv.TerminalInput) error {
	if err := CheckTerminalInput(in); err != nil {
		return err
	}
	act, err := s.actionsOf(ctx, id)
	if err != nil {
		return err
	}
	err = act.Terminal(ctx, in)
	if l := s.liveOf(id); l != nil {
		l.nudge()
	}
	return err
}

// watchable is a pane that can be followed as it is drawn
// (runs.Terminal).
type watchable interface {
	Watch(ctx context.Context) (*tmux.Watcher, error)
}

// WatchTerminal follows a live run's pane as the CLI draws it; the caller
// closes the watcher. EConflict for an ended run, or an attached one
// whose pane lab cannot reach or verify (the message says why).
func (s *Service) WatchTerminal(ctx context.Context, id string) (*tmux.Watcher, error) {
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.State == conv.StateEnded {
		return nil, conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	w, ok := s.runs.Pane(id).(watchable)
	if !ok {
		return nil, conv.Errorf(conv.EConflict, "run %s has no terminal lab can show", id)
	}
	return w.Watch(ctx)
}
