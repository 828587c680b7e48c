package claude_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/fakeclaudeapi"
)

// What `claude --resume <id>` does on the pinned CLI, which lab's resume
// builds on: the resumed process keeps the session id and appends to the
// same transcript file (so a resumed run's chat continues the old one at
// the same seqs), its SessionStart hook says source "resume" with that
// path, and the model receives the earlier turns with the new prompt.
func TestResumeAppendsToTheSameTranscript(t *testing.T) {
	r := claudetest.NewRig(t, fakeclaudeapi.Options{})
	r.Spawn("first", "--", "lab:text remember the word banana")
	r.WaitRequest(60*time.Second, "the first prompt", func(q fakeclaudeapi.Request) bool {
		return q.Kind == "messages" && strings.Contains(q.Prompt, "banana")
	})
	r.WaitPane("first", "You said: lab:text remember", 60*time.Second)
	var sid string
	claudetest.Poll(t, 30*time.Second, "the registry entry", func() bool {
		ents, _ := claude.ReadRegistry(r.Home)
		if len(ents) == 1 {
			sid = ents[0].SessionID
		}
		return sid != ""
	})
	before, _ := filepath.Glob(filepath.Join(r.Home, ".claude", "projects", "*", "*.jsonl"))
	if len(before) != 1 || filepath.Base(before[0]) != sid+".jsonl" {
		t.Fatalf("transcripts %v; want one named by session %s", before, sid)
	}
	r.Tmux.KillSession(t.Context(), "first")
	claudetest.Poll(t, 30*time.Second, "the first CLI gone", func() bool {
		ents, _ := claude.ReadRegistry(r.Home)
		return len(ents) == 0
	})

	spool := filepath.Join(claudetest.ShortTempDir(t, "labspool"), "spool")
	settings := filepath.Join(filepath.Dir(spool), "settings.json")
	if err := claude.WriteHookSettings(settings, spool); err != nil {
		t.Fatal(err)
	}
	r.Spawn("second", claude.SpawnArgv(claude.SpawnOptions{Settings: settings, Resume: sid})[1:]...)
	r.WaitPaneSettled("second", "remember the word banana", 500*time.Millisecond, 60*time.Second)
	r.Paste("second", "lab:text which word was it")
	r.Keys("second", "Enter")
	req := r.WaitRequest(60*time.Second, "the resumed prompt", func(q fakeclaudeapi.Request) bool {
		return q.Kind == "messages" && strings.Contains(q.Prompt, "which word")
	})
	var said []string
	for _, m := range req.Messages {
		if m.Role == "user" || m.Role == "assistant" {
			said = append(said, m.Role+": "+m.TypedText())
		}
	}
	joined := strings.Join(said, "\n")
	if !strings.Contains(joined, "user: lab:text remember the word banana") || !strings.Contains(joined, "assistant: Hello from lab's scripted model. You said: lab:text remember the word banana") {
		t.Fatalf("the resumed request carried:\n%s\nwant the earlier prompt and answer before the new prompt", joined)
	}

	st, err := claude.OpenSpool(spool).Refresh()
	if err != nil || st.SessionID != sid || st.TranscriptPath != before[0] || st.Source != "resume" {
		t.Fatalf("resumed SessionStart: session %q path %q source %q (%v); want %s, %s, resume", st.SessionID, st.TranscriptPath, st.Source, err, sid, before[0])
	}
	r.WaitPane("second", "You said: lab:text which word", 60*time.Second)
	after, _ := filepath.Glob(filepath.Join(r.Home, ".claude", "projects", "*", "*.jsonl"))
	if len(after) != 1 || after[0] != before[0] {
		t.Fatalf("transcripts after resuming: %v; want only %s, appended to", after, before[0])
	}
	ents, _ := claude.ReadRegistry(r.Home)
	if len(ents) != 1 || ents[0].SessionID != sid {
		t.Fatalf("registry after resuming: %+v; want the same session id %s", ents, sid)
	}
}
