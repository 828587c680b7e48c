package chat

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"lab/internal/conv"
)

// stuckPane is a pane whose captures, once stuck, hang until released,
// as tmux does when the machine is busy starting runs.
type stuckPane struct {
	stuck   atomic.Bool
	gate    chan struct{}
	entered chan struct{}
}

func (p *stuckPane) SendKeys(context.Context, ...string) error { return nil }
func (p *stuckPane) Paste(context.Context, string) error       { return nil }
func (p *stuckPane) Type(context.Context, string) error        { return nil }
func (p *stuckPane) Capture(context.Context) (string, error) {
	if !p.stuck.Load() {
		return "", nil
	}
	select {
	case p.entered <- struct{}{}:
	default:
	}
	<-p.gate
	return "", nil
}

// TestReadsNeverWaitOnSlowWork: a run's messages and the runs list are
// served while the run's refresh hangs in a pane capture (holding the live
// view's lock) and a start hangs inside the runner's lock (which the
// runner's own reads take): reads take neither.
func TestReadsNeverWaitOnSlowWork(t *testing.T) {
	pane := &stuckPane{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	f := newLiveFixture(t, func(r *stubRunner) { r.panes = map[string]Pane{"run-1": pane} })
	gate := make(chan struct{})
	started := make(chan struct{})
	var startedOnce atomic.Bool
	t.Cleanup(func() { // before the fixture's: its Close waits for the refresh
		close(gate)
		close(pane.gate)
		if startedOnce.Load() {
			<-started
		}
	})
	appendLines(t, f.transcript, lineUser("hello"))
	// A working turn whose transcript is quiet gets its pane read: wait
	// for the message, then make such a read hang.
	deadline := time.Now().Add(10 * time.Second)
	for len(f.svc.liveOf("run-1").snapshot(conv.Query{Limit: 10}).Messages) < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the transcript's messages never showed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pane.stuck.Store(true)
	select {
	case <-pane.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the live view never read the pane")
	}
	f.runner.mu.Lock()
	f.runner.startGate = gate
	f.runner.mu.Unlock()
	startedOnce.Store(true)
	go func() {
		f.svc.Start(context.Background(), conv.StartRequest{Cwd: "/w"})
		close(started)
	}()

	read := make(chan conv.Page, 1)
	go func() {
		// As GET messages does: note the watcher (for live text), then read.
		f.svc.Watch("run-1")
		p, err := f.svc.Messages(context.Background(), "run-1", conv.Query{Limit: 10})
		if err != nil {
			t.Error(err)
		}
		read <- p
	}()
	select {
	case p := <-read:
		if len(p.Messages) != 1 || p.Messages[0].Text != "hello" || p.State != conv.StateWorking {
			t.Errorf("page %s %+v; want the working turn's message", p.State, p.Messages)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("GET messages waited on the stuck refresh or the stuck start")
	}
	// The refresh is still stuck: the read did not wait for it to end.
	select {
	case <-started:
		t.Fatal("the start was not held")
	default:
	}
}
