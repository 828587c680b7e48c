package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lab/internal/agent"
	"lab/internal/clikit"
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
// submit). A reply of white space and invisible characters only is empty.
// Errors: ETooLarge past max bytes, EInvalid otherwise.
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
	if strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) && !clikit.IsInvisible(r) }) < 0 {
		return "", conv.Errorf(conv.EInvalid, "the reply is empty (nothing in it is visible)")
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
// A reply lab pasted is submitted or removed again, never left in the
// box: when the box does not show it, or the CLI does not take it, lab
// deletes it (the driver's ClearKey, checked on the pane) before
// answering. A reply left behind anyway (lab stopped mid-reply, or the
// box could not be emptied) is remembered, in the journal when the actor
// has one, and removed by the next reply.
//
// files are uploads handed over with the reply: each image is attached
// the way the CLI takes one (its path pasted into the box, checked to
// show as an attachment), every other file is named by its path on a
// line of the text for the agent to read (conv.WithFileRefs). The text
// may then be empty. If an attachment is not taken as expected, the box
// is emptied again (Driver.ClearKeys) and nothing is submitted.
//
// Errors: EInvalid / ETooLarge (see CleanReply and Driver.Typable;
// nothing typed), EConflict (nothing submitted; also a reply the CLI
// would run as one of its commands, see agent.Driver.Literal),
// EUnavailable (the pane or the pending dialog could not be read).
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
		if text, err = a.drv.Typable(text); err != nil {
			return err
		}
		// A reply is a message, never one of the CLI's commands.
		if text, err = a.drv.Literal(text); err != nil {
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
		if err := a.clearLeftover(ctx, box); err != nil {
			return err
		}
	}
	if len(images) > 0 {
		return a.replyWithImages(ctx, images, text, len(others))
	}
	if err := a.left.set(text); err != nil {
		a.log.Warn("cannot note the reply in flight", "err", err)
	}
	if err := a.pane.Paste(ctx, text); err != nil {
		return a.withdraw(ctx, text, conv.Wrap(conv.EUnavailable, err, "pasting the reply"))
	}
	if err := a.poll(ctx, a.holds(text)); err != nil {
		return a.withdraw(ctx, text, conv.Wrap(conv.EConflict, err, "the reply did not show in the prompt as typed; it was not submitted"))
	}
	if err := pause(ctx, a.opts.ReplyDelay); err != nil {
		return a.withdraw(ctx, text, conv.Wrap(conv.EUnavailable, err, "reply cancelled"))
	}
	enters, err := a.enter(ctx, a.submitted(text), "reply")
	if err != nil {
		return a.withdraw(ctx, text, err)
	}
	a.left.drop()
	a.log.Info("replied", "bytes", len(text), "lines", strings.Count(text, "\n")+1, "enters", enters, "files", len(files))
	return nil
}

// replyWithImages attaches images and pastes text into the empty box,
// each step checked on the box (agent.ComposeSteps), and submits it. On
// any failure the box is emptied with the CLI's own keys (a box holding
// attachments is not emptied by deleting text) and nothing is sent.
func (a *Actor) replyWithImages(ctx context.Context, images []string, text string, others int) error {
	steps := agent.ComposeSteps(a.drv.Prompt, images, text)
	for i := range steps {
		// The box was on the pane before the reply began: no screen just
		// appeared whose grace the pastes should wait out.
		steps[i].Acts = false
	}
	if _, err := a.play(ctx, steps, time.Time{}, ""); !errors.Is(err, errNoCommit) {
		a.emptyAttachments(ctx)
		if conv.KindOf(err) == conv.EConflict {
			return conv.Wrap(conv.EConflict, err, "the CLI did not take the attachments as expected; nothing was sent")
		}
		return err
	}
	if err := pause(ctx, a.opts.ReplyDelay); err != nil {
		a.emptyAttachments(ctx)
		return conv.Wrap(conv.EUnavailable, err, "reply cancelled")
	}
	gone := agent.BoxSubmitted{Read: a.drv.Prompt, Text: text, N: len(images)}
	enters, err := a.enter(ctx, func(capture string) error { _, err := gone.Match(capture); return err }, "reply")
	if err != nil {
		a.emptyAttachments(ctx)
		return err
	}
	a.log.Info("replied", "bytes", len(text), "lines", strings.Count(text, "\n")+1, "enters", enters, "images", len(images), "files", others)
	return nil
}

// emptyAttachments empties an input box that holds something with the
// CLI's own keys (Driver.ClearKeys), so a prompt with attachments lab
// could not finish leaves nothing behind. Best effort: a failure is
// logged (the error that brought it here is what the caller reports).
func (a *Actor) emptyAttachments(ctx context.Context) {
	capture, err := a.pane.Capture(ctx)
	if err != nil {
		return
	}
	if box, ok := a.drv.Prompt(capture); !ok || box.Empty() {
		return
	}
	for _, k := range a.drv.ClearKeys() {
		if err := a.pane.SendKeys(ctx, k); err != nil {
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
	a.log.Info("emptied the prompt after a reply with attachments that was not sent")
}

// enter presses Enter on what the prompt holds until gone passes (the
// prompt let go of it): a second time when the first was lost (the CLI
// was busy drawing), never a third. what names the text in errors and
// logs.
func (a *Actor) enter(ctx context.Context, gone func(capture string) error, what string) (enters int, err error) {
	for attempt := 1; ; attempt++ {
		if err := a.pane.SendKeys(ctx, "Enter"); err != nil {
			return attempt, conv.Wrap(conv.EUnavailable, err, "sending Enter")
		}
		err := a.poll(ctx, gone)
		if err == nil {
			return attempt, nil
		}
		if attempt == 2 {
			return attempt, conv.Wrap(conv.EConflict, err, "the CLI did not take the "+what)
		}
		a.log.Warn(what+" still in the prompt after Enter; sending Enter again", "err", err)
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
