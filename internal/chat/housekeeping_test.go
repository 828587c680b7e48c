package chat

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
)

// StopIdle stops only what is idle at the moment of the call, whatever
// the operator confirmed earlier.
func TestStopIdleStopsOnlyIdleRuns(t *testing.T) {
	f := newLiveFixture(t) // run-1: its turn ended below
	appendLines(t, f.transcript, lineUser("hello"), lineAssistantText("hi there", "end_turn"))
	for _, id := range []string{"run-2", "run-3"} {
		f.svc.follow(f.runner.add(id), false)
	}
	busy := filepath.Join(t.TempDir(), "sess-2.jsonl")
	spoolEvent(t, f.runner.SpoolDir("run-2"), "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-2", "transcript_path": busy, "source": "startup"})
	appendLines(t, busy, lineUser("work hard"))
	asking := filepath.Join(t.TempDir(), "sess-3.jsonl")
	spoolEvent(t, f.runner.SpoolDir("run-3"), "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-3", "transcript_path": asking, "source": "startup"})
	appendLines(t, asking, lineUser("ask me"), lineToolUse("toolu_q", "AskUserQuestion", map[string]any{"questions": []any{
		map[string]any{"question": "Which?", "header": "W", "multiSelect": false, "options": []any{map[string]any{"label": "A"}, map[string]any{"label": "B"}}},
	}}))
	ctx := context.Background()
	claudetest.Poll(t, 10*time.Second, "the three states", func() bool {
		a, _ := f.svc.Get(ctx, "run-1")
		b, _ := f.svc.Get(ctx, "run-2")
		c, _ := f.svc.Get(ctx, "run-3")
		return a.State == conv.StateNeedsInput && b.State == conv.StateWorking && c.State == conv.StateQuestion
	})

	res, err := f.svc.StopIdle(ctx, []string{"run-1", "run-2", "run-3", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, s.ID+": "+s.Reason)
	}
	want := []string{"run-2: it is working", "run-3: a dialog is waiting for an answer", "nope: no run nope"}
	if !slices.Equal(res.Done, []string{"run-1"}) || !slices.Equal(skipped, want) {
		t.Fatalf("got done %v, skipped %q; want run-1 stopped and %q", res.Done, skipped, want)
	}
	if r, _ := f.svc.Get(ctx, "run-1"); r.State != conv.StateEnded {
		t.Fatalf("run-1 is %s after StopIdle; want ended", r.State)
	}
	if r, _ := f.svc.Get(ctx, "run-2"); r.State == conv.StateEnded {
		t.Fatal("a working run was stopped")
	}
	// Asked again, the ended run is reported, not stopped twice.
	res, _ = f.svc.StopIdle(ctx, []string{"run-1"})
	if len(res.Done) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "it has already ended" {
		t.Fatalf("second call: got %+v", res)
	}
}
