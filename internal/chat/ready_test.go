package chat

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
)

// lockedPane is a screenPane safe to change while another goroutine reads.
type lockedPane struct {
	mu      sync.Mutex
	capture string
}

func (p *lockedPane) SendKeys(context.Context, ...string) error { return nil }
func (p *lockedPane) Paste(context.Context, string) error       { return nil }
func (p *lockedPane) Type(context.Context, string) error        { return nil }
func (p *lockedPane) Capture(context.Context) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.capture, nil
}
func (p *lockedPane) show(s string) { p.mu.Lock(); p.capture = s; p.mu.Unlock() }

func readyLive(t *testing.T, pane Pane, fresh bool) *live {
	l := &live{look: newLooker(pane, claudeDriver("2.1.332")), opts: liveOpts{fresh: fresh}}
	l.tail = newTailer(func() {}, time.Hour, time.Hour, slog.New(slog.DiscardHandler))
	l.tail.start()
	t.Cleanup(l.tail.Close)
	return l
}

// A run started just now whose transcript ends in a finished turn (a
// resumed one) is idle until its CLI shows a screen lab knows, and for
// the grace after; one adopted at start-up is up already.
func TestAFreshRunIsIdleUntilItsPromptShows(t *testing.T) {
	pane := &lockedPane{}
	l := readyLive(t, pane, true)
	t0 := time.Now()
	st, _ := l.look.overlay(conv.StateNeedsInput, idleMark{}, 0, nil, false, t0)
	if got := l.readyState(st, t0); got != conv.StateIdle {
		t.Fatalf("blank pane: %s; want idle", got)
	}
	pane.show(readScreen(t, "prompt-empty"))
	at := t0.Add(time.Second)
	st, _ = l.look.overlay(conv.StateNeedsInput, idleMark{}, 0, nil, false, at)
	if got := l.readyState(st, at); got != conv.StateIdle {
		t.Fatalf("the box just showed: %s; want idle for the grace", got)
	}
	if got := l.readyState(st, at.Add(readyGrace)); got != conv.StateNeedsInput {
		t.Fatalf("the box shown for the grace: %s; want needs_input", got)
	}
	worked := readyLive(t, &lockedPane{}, true)
	if got := worked.readyState(conv.StateWorking, t0); got != conv.StateWorking {
		t.Fatalf("working while starting: %s; want working (only a finished turn waits)", got)
	}
	if got := worked.readyState(conv.StateNeedsInput, t0); got != conv.StateNeedsInput {
		t.Fatalf("a turn that ended after the CLI was seen working: %s; want needs_input (it took its prompt: it is up)", got)
	}
	adopted := readyLive(t, &lockedPane{}, false)
	if got := adopted.readyState(conv.StateNeedsInput, t0); got != conv.StateNeedsInput {
		t.Fatalf("an adopted run: %s; want needs_input at once", got)
	}
}

// A reply to a starting CLI waits for its box; one to a CLI that is up
// does not wait at all.
func TestWaitReadyWaitsForTheBox(t *testing.T) {
	pane := &lockedPane{}
	l := readyLive(t, pane, true)
	done := make(chan error, 1)
	go func() { done <- l.waitReady(context.Background()) }()
	select {
	case err := <-done:
		t.Fatalf("waitReady returned %v on a blank pane; want it to wait", err)
	case <-time.After(5 * readyPoll):
	}
	shown := time.Now()
	pane.show(readScreen(t, "prompt-empty"))
	if err := <-done; err != nil {
		t.Fatalf("waitReady: %v", err)
	}
	if waited := time.Since(shown); waited < readyGrace {
		t.Fatalf("returned %v after the box showed; want the grace (%v) first", waited, readyGrace)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := readyLive(t, &lockedPane{}, false).waitReady(ctx); err != nil {
		t.Fatalf("an adopted run: %v; want no wait", err)
	}
	if err := l.waitReady(ctx); err != nil {
		t.Fatalf("a ready run: %v; want no wait", err)
	}
}
