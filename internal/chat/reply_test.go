package chat

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lab/internal/conv"
)

// The clearing of a reply lab pasted and did not submit, against the fake
// TUI (the real CLIs: reply_e2e_test.go).

func TestReplyNeverLeftInThePrompt(t *testing.T) {
	t.Run("a paste the box draws otherwise is removed", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.mangle = func(s string) string { return strings.ToUpper(s) + "\nand more" }
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		err := act.Reply(context.Background(), "hello")
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "lab removed it from the prompt") {
			t.Fatalf("got %v; want a conflict saying the reply was removed", err)
		}
		if f.prompt != "" || len(f.submitted) != 0 {
			t.Errorf("prompt %q, submitted %q; want an empty prompt and nothing submitted", f.prompt, f.submitted)
		}
		// Two lines: text, break, text — three deletions.
		if got := f.sent(); !reflect.DeepEqual(got, []string{"paste:hello", "C-u", "C-u", "C-u"}) {
			t.Errorf("keys = %q", got)
		}
		f.mangle = nil
		if err := act.Reply(context.Background(), "again"); err != nil {
			t.Fatalf("the next reply: %v", err)
		}
		if !reflect.DeepEqual(f.submitted, []string{"again"}) {
			t.Errorf("submitted %q; want the next reply", f.submitted)
		}
	})
	t.Run("a reply the CLI does not take is removed", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.enterLost = 2
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		err := act.Reply(context.Background(), "line one\nline two")
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "did not take the reply; lab removed it") {
			t.Fatalf("got %v; want a conflict saying the reply was removed", err)
		}
		if f.prompt != "" || len(f.submitted) != 0 {
			t.Errorf("prompt %q, submitted %q", f.prompt, f.submitted)
		}
	})
	t.Run("text typed at the terminal is left alone", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.prompt = "half typed"
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		err := act.Reply(context.Background(), "hello")
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "lab did not type") {
			t.Fatalf("got %v; want a conflict naming text lab did not type", err)
		}
		if len(f.sent()) != 0 || f.prompt != "half typed" {
			t.Errorf("keys %q, prompt %q; want nothing sent and the text kept", f.sent(), f.prompt)
		}
	})
	t.Run("a reply an earlier lab left is removed by the next", func(t *testing.T) {
		journal := filepath.Join(t.TempDir(), "reply-in-prompt")
		opts := testOpts()
		opts.Journal = journal
		f := newFakeTUI(nil)
		f.enterLost = 2
		f.deafTo = "C-u" // the clearing keys are lost: the reply stays
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, opts)
		err := act.Reply(context.Background(), "first")
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "could not remove it") {
			t.Fatalf("got %v; want a conflict saying the reply is still there", err)
		}
		if f.prompt != "first" {
			t.Fatalf("prompt %q; want the reply left in it", f.prompt)
		}
		// A new lab process: a new actor, the same journal.
		f.deafTo = ""
		act = NewActor(f, claudeDriver("2.1.332"), f.pending, nil, opts)
		if err := act.Reply(context.Background(), "second"); err != nil {
			t.Fatalf("the next reply: %v", err)
		}
		if !reflect.DeepEqual(f.submitted, []string{"second"}) {
			t.Errorf("submitted %q; want only the second reply", f.submitted)
		}
	})
	t.Run("someone else's text is not removed for lab's", func(t *testing.T) {
		journal := filepath.Join(t.TempDir(), "reply-in-prompt")
		opts := testOpts()
		opts.Journal = journal
		f := newFakeTUI(nil)
		f.enterLost = 2
		f.deafTo = "C-u"
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, opts)
		_ = act.Reply(context.Background(), "first")
		f.prompt = "typed at the terminal"
		f.deafTo = ""
		act = NewActor(f, claudeDriver("2.1.332"), f.pending, nil, opts)
		err := act.Reply(context.Background(), "second")
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "other than the reply lab left") {
			t.Fatalf("got %v; want a conflict", err)
		}
		if f.prompt != "typed at the terminal" {
			t.Errorf("prompt %q; want it kept", f.prompt)
		}
	})
	t.Run("characters the CLI drops are refused before any key", func(t *testing.T) {
		f := newFakeTUI(nil)
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		err := act.Reply(context.Background(), "evil \u202etxt.exe and a\u200bb")
		if conv.KindOf(err) != conv.EInvalid {
			t.Fatalf("got %v; want invalid", err)
		}
		for _, name := range []string{"U+202E RIGHT-TO-LEFT OVERRIDE", "U+200B ZERO WIDTH SPACE"} {
			if !strings.Contains(err.Error(), name) {
				t.Errorf("%q does not name %s", err, name)
			}
		}
		if len(f.sent()) != 0 {
			t.Errorf("keys sent: %q", f.sent())
		}
	})
}
