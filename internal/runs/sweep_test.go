package runs

import (
	"context"
	"sync"
	"testing"

	"lab/internal/conv"
)

// A sweep that reads the tmux sessions while a run is recorded but its
// session not yet created must not end that run. Sweeping without a pause
// through several starts makes the race likely; each started run must
// still be live afterwards.
func TestSweepDuringStartKeepsTheRun(t *testing.T) {
	f := newFixture(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			if _, err := f.svc.Sweep(ctx); err != nil && ctx.Err() == nil {
				t.Errorf("sweep: %v", err)
				return
			}
		}
	}()
	for i := range 8 {
		r := f.start(conv.StartRequest{})
		rec, err := f.db.GetRun(context.Background(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.State == conv.StateEnded || !rec.Live() {
			t.Errorf("start %d: run %s came back ended (%q; its session exists: %v): the sweep took it for dead while it started", i, r.ID, rec.EndReason, f.hasSession(rec.TmuxSession))
		}
		// Stopping leaves no session, so the next Start also starts the
		// tmux server: the widest window.
		if _, err := f.svc.Stop(context.Background(), r.ID); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	wg.Wait()
}
