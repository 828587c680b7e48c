package chat

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

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
// Errors: EInvalid / ETooLarge (see CleanReply; nothing typed),
// EConflict (nothing submitted), EUnavailable (the pane or the pending
// dialog could not be read).
func (a *Actor) Reply(ctx context.Context, text string) error {
	text, err := CleanReply(text, a.opts.MaxReply)
	if err != nil {
		return err
	}
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
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
	if err := a.pane.Paste(ctx, text); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "pasting the reply")
	}
	if err := a.poll(ctx, a.holds(text)); err != nil {
		return conv.Wrap(conv.EConflict, err, "the reply did not appear in the prompt; it was not submitted")
	}
	if err := pause(ctx, a.opts.ReplyDelay); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "reply cancelled")
	}
	for attempt := 1; ; attempt++ {
		if err := a.pane.SendKeys(ctx, "Enter"); err != nil {
			return conv.Wrap(conv.EUnavailable, err, "sending Enter")
		}
		err := a.poll(ctx, a.submitted(text))
		if err == nil {
			a.log.Info("replied", "bytes", len(text), "lines", strings.Count(text, "\n")+1, "enters", attempt)
			return nil
		}
		if attempt == 2 {
			return conv.Wrap(conv.EConflict, err, "the CLI did not take the reply")
		}
		a.log.Warn("reply still in the prompt after Enter; sending Enter again", "err", err)
	}
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

// submitted accepts a pane whose input box no longer shows text.
func (a *Actor) submitted(text string) func(string) error {
	return func(capture string) error {
		box, ok := a.drv.Prompt(capture)
		if ok && box.Holds(text) {
			return fmt.Errorf("input box still shows the reply")
		}
		return nil
	}
}
