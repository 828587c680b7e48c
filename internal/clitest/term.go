package clitest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/tmux"
)

// Term drives the panes of a private tmux server the way a person at the
// terminal would: it reads them, waits for what they show, and sends keys
// and pastes one at a time. A harness's Rig embeds it.
type Term struct {
	Tmux *tmux.Server
	// KeyPause is the pause after each key Keys sends and each paste.
	KeyPause time.Duration

	t testing.TB
}

// NewTerm returns a Term on s for test t.
func NewTerm(t testing.TB, s *tmux.Server, keyPause time.Duration) Term {
	return Term{Tmux: s, KeyPause: keyPause, t: t}
}

// Pane returns the visible pane text of target.
func (r *Term) Pane(target string) string {
	out, _ := r.Tmux.Capture(context.Background(), target)
	return out
}

// WaitPane waits until target's pane shows want and returns the pane.
func (r *Term) WaitPane(target, want string, timeout time.Duration) string {
	r.t.Helper()
	return r.WaitPaneFunc(target, strconv.Quote(want), timeout, func(p string) bool { return strings.Contains(p, want) })
}

// WaitPaneFunc waits until ok accepts target's pane and returns the pane;
// what names the wait in the failure.
func (r *Term) WaitPaneFunc(target, what string, timeout time.Duration, ok func(string) bool) string {
	r.t.Helper()
	var last string
	deadline := time.Now().Add(timeout)
	for {
		last = r.Pane(target)
		if ok(last) {
			return last
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("pane %s never showed %s within %v; last:\n%s", target, what, timeout, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitPaneSettled waits until target's pane shows want and has stopped
// changing for settle, and returns it. A picker that has just appeared can
// still be mounting; keys sent into it then have been seen to be lost
// under load, so drive it only once it is still.
func (r *Term) WaitPaneSettled(target, want string, settle, timeout time.Duration) string {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	var since time.Time
	for {
		cur := r.Pane(target)
		if cur != last {
			last, since = cur, time.Now()
		}
		if strings.Contains(cur, want) && time.Since(since) >= settle {
			return cur
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("pane %s never settled showing %q within %v; last:\n%s", target, want, timeout, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Keys sends named keys one per call with KeyPause after each: bursts in
// one send-keys call have been seen to lose keys.
func (r *Term) Keys(target string, keys ...string) {
	r.t.Helper()
	for _, k := range keys {
		if err := r.Tmux.SendKey(context.Background(), target, k); err != nil {
			r.t.Fatalf("key %s: %v", k, err)
		}
		time.Sleep(r.KeyPause)
	}
}

// Paste types text into target as a bracketed paste, then pauses.
func (r *Term) Paste(target, text string) {
	r.t.Helper()
	if err := r.Tmux.Paste(context.Background(), target, text); err != nil {
		r.t.Fatalf("paste: %v", err)
	}
	time.Sleep(r.KeyPause)
}
