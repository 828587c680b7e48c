package chat

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/conv"
)

// turnLog records what OnTurn heard.
type turnLog struct {
	mu   sync.Mutex
	seen []turnReport
}

type turnReport struct {
	prompts int
	state   conv.State
}

func (l *turnLog) hear(runID string, prompts int, state conv.State) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, turnReport{prompts, state})
}

// wait polls until the last report is want.
func (l *turnLog) wait(t *testing.T, want turnReport) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		n := len(l.seen)
		last := turnReport{}
		if n > 0 {
			last = l.seen[n-1]
		}
		l.mu.Unlock()
		if last == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Fatalf("turn reports %+v; want the last to be %+v", l.seen, want)
}

func linePromptAt(text string, at time.Time) string {
	return mustJSON(map[string]any{"type": "user", "sessionId": "s1", "cwd": "/w", "timestamp": at.UTC().Format(time.RFC3339Nano),
		"message": map[string]any{"role": "user", "content": text}})
}

// The live view tells OnTurn how many prompts the run's chat holds and
// its state as either changes: a resumed session's earlier prompts do not
// count, a turn's start and end are heard, and so is the run's end.
func TestTurnsReported(t *testing.T) {
	ctx := context.Background()
	runner := newStubRunner(t)
	run := runner.add("run-1")
	var log turnLog
	svc, err := NewService(ctx, ServiceConfig{
		Runs: runner, Providers: []agent.Provider{claude.New()}, Library: NewLibrary(testShelves(t.TempDir()), nil),
		SweepEvery: 50 * time.Millisecond, OnTurn: log.hear,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	transcript := filepath.Join(t.TempDir(), "s1.jsonl")
	// A resumed session: its earlier turn is older than the run.
	appendLines(t, transcript, linePromptAt("an earlier prompt", run.StartedAt.Add(-time.Hour)), lineAssistantText("earlier answer", "end_turn"))
	spoolEvent(t, runner.SpoolDir("run-1"), "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "s1", "transcript_path": transcript, "source": "resume"})
	log.wait(t, turnReport{0, conv.StateNeedsInput})

	appendLines(t, transcript, linePromptAt("lab:write a file", time.Now()))
	log.wait(t, turnReport{1, conv.StateWorking})
	appendLines(t, transcript, lineAssistantText("done", "end_turn"))
	log.wait(t, turnReport{1, conv.StateNeedsInput})
	appendLines(t, transcript, linePromptAt("now edit it", time.Now()), lineAssistantText("edited", "end_turn"))
	log.wait(t, turnReport{2, conv.StateNeedsInput})

	if err := svc.Stop(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	log.wait(t, turnReport{2, conv.StateEnded})
}
