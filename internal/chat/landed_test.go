package chat

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
)

// TestLandedDialogIsAnsweredBeforeTheTranscriptSays: once lab's answer
// landed (the CLI took its committing key), the live view no longer
// serves the dialog as pending, counts the run as working and shows the
// dialog with the outcome lab intended, announced as a back-patch of its
// message; when the transcript records the answer, its own outcome
// replaces the intended one and the dialog is forgotten.
func TestLandedDialogIsAnsweredBeforeTheTranscriptSays(t *testing.T) {
	dir := t.TempDir()
	spool, transcript := filepath.Join(dir, "spool"), filepath.Join(dir, "sess-1.jsonl")
	if err := os.MkdirAll(spool, 0o755); err != nil {
		t.Fatal(err)
	}
	spoolEvent(t, spool, "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-1", "transcript_path": transcript, "source": "startup"})
	in := NewIntents()
	events := &eventLog{}
	l := newLive("run-1", claude.OpenSpool(spool), claudeFold, nil, claudeDriver("2.1.328"), in.Lookup, events, slog.New(slog.DiscardHandler))
	t.Cleanup(l.close)
	appendLines(t, transcript, lineUser("ask me"), lineToolUse("toolu_q", "AskUserQuestion", singleQuestion))
	spoolEvent(t, spool, "PreToolUse", map[string]any{"hook_event_name": "PreToolUse", "session_id": "sess-1",
		"tool_name": "AskUserQuestion", "tool_use_id": "toolu_q", "tool_input": singleQuestion})
	claudetest.Poll(t, 10*time.Second, "the pending question", func() bool {
		d, st := l.current()
		return d != nil && d.ToolID == "toolu_q" && st == conv.StateQuestion
	})
	dialogMsg := func() conv.Message {
		t.Helper()
		for _, m := range l.snapshot(conv.Query{Limit: 100}).Messages {
			if m.Kind == conv.KindDialog && m.Dialog.ToolID == "toolu_q" {
				return m
			}
		}
		t.Fatal("no dialog message for toolu_q")
		return conv.Message{}
	}
	before := dialogMsg()
	if before.Dialog.Outcome != nil {
		t.Fatalf("outcome %+v before any answer", before.Dialog.Outcome)
	}

	intended := &conv.Outcome{Results: []conv.QuestionResult{{Question: "Which database?", Chosen: []string{"PostgreSQL"}}}}
	in.Record("toolu_q", intended)
	l.land("toolu_q")
	if d, st := l.current(); d != nil || st != conv.StateWorking {
		t.Fatalf("after landing: pending %+v, state %s; want none, working", d, st)
	}
	got := dialogMsg()
	if !sameOutcome(got.Dialog.Outcome, intended) || got.ContentHash == before.ContentHash {
		t.Fatalf("after landing: outcome %s (hash %s, was %s); want the intended one, a new hash", outcomeString(got.Dialog.Outcome), got.ContentHash, before.ContentHash)
	}
	var patched bool
	events.mu.Lock()
	for _, e := range events.evs {
		patched = patched || e.ev.BackpatchSeq == got.Seq
	}
	events.mu.Unlock()
	if !patched {
		t.Errorf("no event back-patched seq %d when the dialog landed", got.Seq)
	}

	// The transcript records another answer than lab meant (someone at
	// the terminal was quicker): the record wins.
	appendLines(t, transcript, lineToolResult("toolu_q", "SQLite", map[string]any{"toolUseResult": map[string]any{"answers": map[string]any{"Which database?": "SQLite"}}}))
	claudetest.Poll(t, 10*time.Second, "the recorded answer", func() bool {
		o := dialogMsg().Dialog.Outcome
		return o != nil && len(o.Results) == 1 && len(o.Results[0].Chosen) == 1 && o.Results[0].Chosen[0] == "SQLite"
	})
	l.mu.Lock()
	left := len(l.landed)
	l.mu.Unlock()
	if left != 0 {
		t.Errorf("%d dialogs still landed after the transcript recorded the answer", left)
	}
}
