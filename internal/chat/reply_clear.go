package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// This file removes from a run's input box the replies lab typed and did
// not submit, so no failed reply ever blocks the next one, and remembers
// a reply it could not remove (in a journal file that outlives the
// process) so that only lab's own text is ever deleted.

// withdraw removes text, a reply lab pasted and is not submitting, from
// the input box and returns cause with what became of the text. It works
// on past a cancelled ctx: the keys must not be left half sent.
func (a *Actor) withdraw(ctx context.Context, text string, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*a.opts.CheckTimeout+5*time.Second)
	defer cancel()
	kind := conv.KindOf(cause)
	msg := cause.Error()
	var ce *conv.Error
	if errors.As(cause, &ce) {
		msg = ce.Message
	}
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return conv.Wrap(kind, errors.Join(cause, err), msg+"; lab could not read the pane to remove it and will remove it before the next reply")
	}
	box, ok := a.drv.Prompt(capture)
	switch {
	case !ok:
		err = errors.New("the CLI is not showing its prompt")
	case box.Empty():
		// The paste may still arrive; the note stays, so the next reply
		// removes it if it does.
		a.log.Warn("reply withdrawn before the prompt showed it", "err", cause)
		return conv.Wrap(kind, cause, msg)
	default:
		// The box was empty before the paste, so what it shows now is
		// the paste, however the CLI drew it: note that look too.
		if !box.Holds(text) {
			a.left.seen(box.Shown())
		}
		err = a.clearBox(ctx, box)
	}
	if err != nil {
		a.log.Warn("reply left in the prompt", "err", err, "cause", cause)
		return conv.Wrap(kind, errors.Join(cause, err), msg+"; lab could not remove it from the prompt ("+err.Error()+") and will remove it before the next reply")
	}
	a.left.drop()
	a.log.Warn("reply removed from the prompt", "err", cause)
	return conv.Wrap(kind, cause, msg+"; lab removed it from the prompt")
}

// clearLeftover empties a box that holds text before a reply: lab's own
// reply left behind (noted in a.left) is removed; anything else is
// someone's typing and a conflict.
func (a *Actor) clearLeftover(ctx context.Context, box agent.PromptBox) error {
	text, shown := a.left.get()
	switch {
	case text == "":
		return conv.Errorf(conv.EConflict, "the prompt already holds text lab did not type (%s); clear it at the terminal", brief(box.Shown()))
	case !box.Holds(text) && (shown == "" || box.Shown() != shown):
		return conv.Errorf(conv.EConflict, "the prompt holds text other than the reply lab left there (%s); clear it at the terminal", brief(box.Shown()))
	}
	if err := a.clearBox(ctx, box); err != nil {
		return conv.Wrap(conv.EConflict, err, "the prompt still holds an earlier reply lab could not submit, and lab could not remove it")
	}
	a.left.drop()
	a.log.Warn("removed an earlier reply lab had left in the prompt", "bytes", len(text))
	return nil
}

// clearBox presses the driver's ClearKey until the input box is empty,
// checking the pane before each key (so only the box is ever edited) and
// waiting for each key to show. Each key deletes a line's text or the
// line break before it, so twice the box's lines bound the keys.
func (a *Actor) clearBox(ctx context.Context, box agent.PromptBox) error {
	limit := 2*(strings.Count(box.Shown(), "\n")+1) + 2
	for i := 0; ; i++ {
		// A frame caught mid-redraw may show no box: look again.
		var box agent.PromptBox
		err := a.poll(ctx, func(capture string) error {
			b, ok := a.drv.Prompt(capture)
			if !ok {
				return errors.New("the CLI is not showing its prompt")
			}
			box = b
			return nil
		})
		if err != nil {
			return err
		}
		if box.Empty() {
			return nil
		}
		if i == limit {
			return fmt.Errorf("the prompt still shows %s after %d deletions", brief(box.Shown()), limit)
		}
		if err := a.pane.SendKeys(ctx, a.drv.ClearKey()); err != nil {
			return fmt.Errorf("sending %s: %w", a.drv.ClearKey(), err)
		}
		before := box.Shown()
		// A key the CLI dropped leaves the box as it was: the next pass
		// presses again, within the limit.
		_ = a.poll(ctx, func(capture string) error {
			b, ok := a.drv.Prompt(capture)
			if ok && !b.Empty() && b.Shown() == before {
				return errors.New("the box did not change")
			}
			return nil
		})
	}
}

// brief quotes the start of s for a message.
func brief(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return fmt.Sprintf("%q…", string(r[:max]))
	}
	return fmt.Sprintf("%q", s)
}

// leftover is the reply lab has in a run's input box while it types it,
// and keeps noting when it could not submit or remove it. With a journal
// path the note is also a file, so a lab that stopped mid-reply knows the
// text in the box for its own when it starts again. Used under the
// actor's lock.
type leftover struct {
	path  string
	text  string
	shown string // how the box showed it, when that was not as typed
	read  bool   // the journal was read
}

type leftoverNote struct {
	Text  string `json:"text"`
	Shown string `json:"shown,omitempty"`
}

// set notes text as the reply lab is typing.
func (l *leftover) set(text string) error {
	l.text, l.shown, l.read = text, "", true
	return l.write()
}

// seen notes how the box showed the reply.
func (l *leftover) seen(shown string) {
	l.shown = shown
	_ = l.write()
}

// drop forgets the reply: it was submitted or removed.
func (l *leftover) drop() {
	l.text, l.shown, l.read = "", "", true
	if l.path != "" {
		_ = os.Remove(l.path)
	}
}

// get returns the reply lab left in the box, if any.
func (l *leftover) get() (text, shown string) {
	if !l.read && l.path != "" {
		l.read = true
		if b, err := os.ReadFile(l.path); err == nil {
			var n leftoverNote
			if json.Unmarshal(b, &n) == nil {
				l.text, l.shown = n.Text, n.Shown
			}
		}
	}
	return l.text, l.shown
}

func (l *leftover) write() error {
	if l.path == "" {
		return nil
	}
	b, err := json.Marshal(leftoverNote{Text: l.text, Shown: l.shown})
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(l.path), "."+filepath.Base(l.path)+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, l.path)
}
