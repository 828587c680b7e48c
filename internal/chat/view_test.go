package chat

import (
	"os"
	"path/filepath"
	"testing"

	"lab/internal/conv"
)

func TestViewFollowsAppendsAndBackpatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	v := NewView(path, claudeFold, nil)
	if ch, err := v.Sync(); err != nil || ch.Changed {
		t.Fatalf("missing file: got %+v, %v; want no change, nil", ch, err)
	}
	appendLines(t, path, lineUser("list files"), lineToolUse("toolu_1", "Bash", map[string]any{"command": "ls"}))
	ch, err := v.Sync()
	if err != nil || !ch.Changed || ch.Backpatch != 0 {
		t.Fatalf("first sync: got %+v, %v; want changed without backpatch", ch, err)
	}
	p := v.Page(conv.Query{Limit: 100})
	if p.Len != 2 || p.State != conv.StateWorking || p.TranscriptID != "s1" {
		t.Fatalf("got len %d state %s id %s; want 2 working s1", p.Len, p.State, p.TranscriptID)
	}
	toolSeq := p.Messages[1].Seq
	if tool := p.Messages[1].Tool; tool == nil || tool.Status != conv.ToolRunning {
		t.Fatalf("got %+v; want a running tool", p.Messages[1])
	}
	oldHash := p.Messages[1].ContentHash

	// Nothing new: no change.
	if ch, _ := v.Sync(); ch.Changed {
		t.Fatalf("idle sync: got %+v; want no change", ch)
	}
	// A partial line is held, then completed.
	res := lineToolResult("toolu_1", "a\nb", nil)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(res[:10])
	f.Close()
	if ch, _ := v.Sync(); ch.Changed {
		t.Fatalf("partial line: got %+v; want no change yet", ch)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(res[10:] + "\n")
	f.Close()
	appendLines(t, path, lineAssistantText("done", "end_turn"))
	ch, _ = v.Sync()
	if !ch.Changed || ch.Backpatch != toolSeq {
		t.Fatalf("tool result: got %+v; want backpatch at seq %d", ch, toolSeq)
	}
	after := v.Page(conv.Query{After: toolSeq, Limit: 100})
	if len(after.Messages) != 1 || after.Messages[0].Text != "done" || after.State != conv.StateNeedsInput {
		t.Fatalf("after %d: got %+v state %s; want just the final text, needs_input", toolSeq, after.Messages, after.State)
	}
	again := v.Page(conv.Query{Limit: 100})
	if again.Messages[1].Tool.Status != conv.ToolOK || again.Messages[1].ContentHash == oldHash {
		t.Fatalf("tool after result: got %+v; want ok with a new content hash", again.Messages[1])
	}
}

func TestViewResetsWhenTheFileShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	appendLines(t, path, lineUser("one"), lineAssistantText("two", "end_turn"), lineUser("three"))
	v := NewView(path, claudeFold, nil)
	v.Sync()
	if n := v.Page(conv.Query{Limit: 10}).Len; n != 3 {
		t.Fatalf("got %d messages; want 3", n)
	}
	if err := os.WriteFile(path, []byte(lineUser("fresh")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ch, err := v.Sync()
	if err != nil || !ch.Reset {
		t.Fatalf("got %+v, %v; want a reset", ch, err)
	}
	p := v.Page(conv.Query{Limit: 10})
	if p.Len != 1 || p.Messages[0].Text != "fresh" {
		t.Fatalf("got %+v; want only the new file's message", p.Messages)
	}
}
