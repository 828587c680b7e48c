package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/agent"
	"lab/internal/conv"
)

// DefaultMaxReply caps a reply's size: far above any message typed on a
// phone, far below what would make the TUI crawl.
const DefaultMaxReply = 64 << 10

// CleanReply checks a reply before anything is typed and returns the text
// to paste: CRLF and lone CR become LF (browsers submit textareas with
// CRLF); any other control character is refused, since bracketed paste
// must not carry an escape that could end the paste early or drive the
// TUI. Tabs and newlines are kept (a newline inside a paste does not
// submit). Errors: ETooLarge past max bytes, EInvalid otherwise.
func CleanReply(text string, max int) (string, error) {
	if len(text) > max {
		return "", conv.Errorf(conv.ETooLarge, "the reply is %d bytes; at most %d", len(text), max)
	}
	if !utf8.ValidString(text) {
		return "", conv.Errorf(conv.EInvalid, "the reply is not valid UTF-8")
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	for _, r := range text {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.IsControl(r) {
			return "", conv.Errorf(conv.EInvalid, "the reply contains the control character %U", r)
		}
	}
	if strings.TrimSpace(text) == "" {
		return "", conv.Errorf(conv.EInvalid, "the reply is empty")
	}
	return text, nil
}

// Reply types text into the run's prompt as one bracketed paste and
// submits it with Enter, so a multi-line reply stays one message. It
// refuses (EConflict) while a dialog is pending — free text cannot answer
// a focused picker — and whenever the pane does not show the pasted text
// in the input box before Enter (a permission prompt or other focused
// screen would take the Enter as a choice). If the box still holds the
// text after Enter, Enter was lost and is sent once more.
//
// files are uploads handed over with the reply: each image is attached
// the way the CLI takes one (its path pasted into the box, checked to
// show as an attachment), every other file is named by its path on a
// line of the text for the agent to read (conv.WithFileRefs). The text
// may then be empty. If anything is not taken as expected, the box is
// emptied again (Driver.ClearKeys) and nothing is submitted.
//
// Errors: EInvalid / ETooLarge (see CleanReply; nothing typed),
// EConflict (nothing submitted), EUnavailable (the pane or the pending
// dialog could not be read).
func (a *Actor) Reply(ctx context.Context, text string, files ...conv.Upload) error {
	var images, others []string
	for _, f := range files {
		if f.Image() {
			images = append(images, f.Path)
		} else {
			others = append(others, f.Path)
		}
	}
	if strings.TrimSpace(text) != "" || len(files) == 0 {
		var err error
		if text, err = CleanReply(text, a.opts.MaxReply); err != nil {
			return err
		}
	} else {
		text = ""
	}
	text = conv.WithFileRefs(text, others)
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	if err := a.promptFree(ctx); err != nil {
		return err
	}
	if len(images) == 0 {
		if err := a.pane.Paste(ctx, text); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "pasting the reply")
		}
		if err := a.poll(ctx, a.holds(text)); err != nil {
			return conv.Wrap(conv.EConflict, err, "the reply did not appear in the prompt; it was not submitted")
		}
	} else if err := a.compose(ctx, images, text); err != nil {
		return err
	}
	if err := pause(ctx, a.opts.KeyDelay); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "reply cancelled")
	}
	err := a.submit(ctx, agent.BoxSubmitted{Read: a.drv.Prompt, Text: text, N: len(images)})
	if err == nil {
		a.log.Info("replied", "bytes", len(text), "lines", strings.Count(text, "\n")+1, "images", len(images), "files", len(others))
	} else if len(images) > 0 {
		a.clearPrompt(ctx)
	}
	return err
}

// promptFree checks, under the run's lock, that nothing waits for an
// answer and that the CLI shows its input box, empty.
func (a *Actor) promptFree(ctx context.Context) error {
	d, err := a.pending(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the pending dialog")
	}
	if d.Pending() {
		return conv.Errorf(conv.EConflict, "a dialog is waiting for an answer; answer it or interrupt first")
	}
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
	}
	box, ok := a.drv.Prompt(capture)
	if !ok {
		return conv.Errorf(conv.EConflict, "the CLI is not showing its prompt (a picker or permission prompt has the focus)")
	}
	if !box.Empty() {
		return conv.Errorf(conv.EConflict, "the prompt already holds text typed at the terminal")
	}
	return nil
}

// compose attaches images and pastes text into the empty box, each step
// checked on the box (agent.ComposeSteps); on a failure it empties the
// box again.
func (a *Actor) compose(ctx context.Context, images []string, text string) error {
	steps := agent.ComposeSteps(a.drv.Prompt, images, text)
	for i := range steps {
		// The box was on the pane before the reply began (promptFree):
		// no screen just appeared whose grace the pastes should wait out.
		steps[i].Acts = false
	}
	_, err := a.play(ctx, steps)
	if errors.Is(err, errNoCommit) {
		return nil
	}
	a.clearPrompt(ctx)
	if conv.KindOf(err) == conv.EConflict {
		return conv.Wrap(conv.EConflict, err, "the CLI did not take the attachments as expected; nothing was sent")
	}
	return err
}

// submit presses Enter until the box no longer holds the prompt (twice at
// most: a lost Enter is sent once more).
func (a *Actor) submit(ctx context.Context, gone agent.Check) error {
	for attempt := 1; ; attempt++ {
		if err := a.pane.SendKey(ctx, "Enter"); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "sending Enter")
		}
		err := a.poll(ctx, func(capture string) error {
			_, err := gone.Match(capture)
			return err
		})
		if err == nil {
			return nil
		}
		if attempt == 2 {
			return conv.Wrap(conv.EConflict, err, "the CLI did not take the reply")
		}
		a.log.Warn("reply still in the prompt after Enter; sending Enter again", "err", err)
	}
}

// clearPrompt empties an input box that holds something, with the CLI's
// own keys, so a prompt lab could not finish leaves nothing behind. It is
// best effort: a failure is logged (the error that brought it here is
// what the caller reports).
func (a *Actor) clearPrompt(ctx context.Context) {
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return
	}
	if box, ok := a.drv.Prompt(capture); !ok || box.Empty() {
		return
	}
	for _, k := range a.drv.ClearKeys() {
		if err := a.pane.SendKey(ctx, k); err != nil {
			a.log.Warn("could not empty the prompt", "err", err)
			return
		}
		if err := pause(ctx, a.opts.KeyDelay); err != nil {
			return
		}
	}
	err = a.poll(ctx, func(capture string) error {
		if box, ok := a.drv.Prompt(capture); ok && !box.Empty() {
			return fmt.Errorf("the prompt still shows %q", box.Shown())
		}
		return nil
	})
	if err != nil {
		a.log.Warn("could not empty the prompt", "err", err)
		return
	}
	a.log.Info("emptied the prompt after a reply that was not sent")
}

// holds accepts a pane whose input box shows text.
func (a *Actor) holds(text string) func(string) error {
	return func(capture string) error {
		box, ok := a.drv.Prompt(capture)
		if !ok {
			return fmt.Errorf("no input box on the pane")
		}
		if !box.Holds(text) {
			return fmt.Errorf("input box shows %q", box.Shown())
		}
		return nil
	}
}
