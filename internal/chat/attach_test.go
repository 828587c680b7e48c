package chat

import (
	"context"
	"path/filepath"
	"testing"

	"lab/internal/claude"
	"lab/internal/conv"
)

// A session started outside lab that waits at a question is listed as
// pending, though its CLI calls it busy; one that finished its turn is not.
func TestExternalSessionsAtAQuestionArePending(t *testing.T) {
	f := newLiveFixture(t)
	dir := t.TempDir()
	asking, done := filepath.Join(dir, "asking.jsonl"), filepath.Join(dir, "done.jsonl")
	appendLines(t, asking, lineUser("ask me"), lineToolUse("toolu_q", "AskUserQuestion", singleQuestion))
	appendLines(t, done, lineUser("hi"), lineAssistantText("hello", "end_turn"))
	f.runner.mu.Lock()
	f.runner.external = []conv.ExternalSession{
		{Provider: claude.Name, PID: 11, Status: "busy", TranscriptPath: asking},
		{Provider: claude.Name, PID: 12, Status: "idle", TranscriptPath: done},
		{Provider: claude.Name, PID: 13, Status: "idle"},
	}
	f.runner.mu.Unlock()
	got, err := f.svc.External(context.Background())
	if err != nil || len(got) != 3 || !got[0].Pending || got[1].Pending || got[2].Pending {
		t.Fatalf("got %+v, %v; want only the session at a question pending", got, err)
	}
}
