package chat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/tmux"
)

func (f *liveFixture) run(t *testing.T) conv.Run {
	t.Helper()
	var list struct{ Runs []conv.Run }
	f.get(t, "/api/v1/runs", &list)
	if len(list.Runs) != 1 {
		t.Fatalf("runs: %+v", list.Runs)
	}
	return list.Runs[0]
}

func (f *liveFixture) page(t *testing.T) conv.Page {
	t.Helper()
	var p conv.Page
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	return p
}

// Each run carries its attention level, last activity and a preview of its
// newest message, derived from the live chat.
func TestRunsCarryAttentionAndPreview(t *testing.T) {
	f := newLiveFixture(t)
	if r := f.run(t); r.Attention != conv.AttentionIdle || r.Preview != "" || r.LastActivity != nil {
		t.Fatalf("fresh run: %+v; want idle without activity", r)
	}

	appendLines(t, f.transcript, lineUser("run the tests"), lineToolUse("toolu_1", "Bash", map[string]any{"command": "npm test"}))
	r := waitRun(t, f, "working", func(r conv.Run) bool { return r.Attention == conv.AttentionWorking })
	if r.Preview != "Bash: npm test" || r.LastActivity == nil || !r.LastActivity.Equal(time.Date(2026, 11, 30, 10, 0, 2, 0, time.UTC)) {
		t.Fatalf("working: preview %q last activity %v", r.Preview, r.LastActivity)
	}

	appendLines(t, f.transcript, lineToolResult("toolu_1", "ok", nil), lineAssistantText("## All green\nEvery test passed.", "end_turn"))
	r = waitRun(t, f, "your turn", func(r conv.Run) bool { return r.Attention == conv.AttentionYourTurn })
	if r.Preview != "All green" || r.State != conv.StateNeedsInput {
		t.Fatalf("turn ended: %+v", r)
	}

	spoolEvent(t, f.spool, "PreToolUse", map[string]any{"hook_event_name": "PreToolUse", "session_id": "sess-1", "tool_name": "AskUserQuestion", "tool_use_id": "toolu_q",
		"tool_input": map[string]any{"questions": []any{map[string]any{"question": "Ship it?", "header": "Ship", "multiSelect": false,
			"options": []any{map[string]any{"label": "Yes"}, map[string]any{"label": "No"}}}}}})
	r = waitRun(t, f, "blocked", func(r conv.Run) bool { return r.Attention == conv.AttentionBlocked })
	if !r.Pending || r.State != conv.StateQuestion || r.Preview != "Ship it?" {
		t.Fatalf("blocked: %+v; want the question waiting as the preview", r)
	}
}

// The preview is the newest line a person would read: not thinking, not
// an unknown tool's raw arguments.
func TestRunPreviewSkipsRawPayloads(t *testing.T) {
	f := newLiveFixture(t)
	appendLines(t, f.transcript, lineUser("look it up"), lineAssistantText("Let me ask the tracker.", ""),
		lineToolUse("toolu_m", "mcp__tracker__search", map[string]any{"query_spec": map[string]any{"project": "lab", "status": "open"}}))
	// The lines are three writes: wait until the last one was read (its
	// time is the run's last activity).
	toolAt := time.Date(2026, 11, 30, 10, 0, 2, 0, time.UTC)
	r := waitRun(t, f, "working", func(r conv.Run) bool {
		return r.Attention == conv.AttentionWorking && r.LastActivity != nil && r.LastActivity.Equal(toolAt)
	})
	if r.Preview != "Let me ask the tracker." {
		t.Fatalf("preview %q; want the agent's last words, not the tool's JSON", r.Preview)
	}
}

func waitRun(t *testing.T, f *liveFixture, what string, ok func(conv.Run) bool) conv.Run {
	t.Helper()
	var r conv.Run
	claudetest.Poll(t, 10*time.Second, what, func() bool {
		r = f.run(t)
		return ok(r)
	})
	return r
}

// While the agent works, the page says since when and which tool runs.
func TestPageProgressWhileWorking(t *testing.T) {
	f := newLiveFixture(t)
	before := time.Now()
	spoolEvent(t, f.spool, "UserPromptSubmit", map[string]any{"hook_event_name": "UserPromptSubmit", "session_id": "sess-1", "prompt": "run the tests"})
	appendLines(t, f.transcript, lineUser("run the tests"), lineToolUse("toolu_1", "Bash", map[string]any{"command": "npm test"}))
	var p conv.Page
	claudetest.Poll(t, 10*time.Second, "progress with the running tool", func() bool {
		p = f.page(t)
		return p.Progress != nil && p.Progress.Tool != nil
	})
	if p.Progress.Tool.Name != "Bash" || p.Progress.Tool.Input != "npm test" || p.Progress.Warning != nil {
		t.Fatalf("progress: %+v tool %+v", p.Progress, p.Progress.Tool)
	}
	// Since is the prompt hook's time, not when lab noticed the work.
	if p.Progress.Since.Before(before.Add(-time.Second)) || p.Progress.Since.After(before.Add(time.Second)) {
		t.Fatalf("since %v; want the prompt's time, about %v", p.Progress.Since, before)
	}

	appendLines(t, f.transcript, lineToolResult("toolu_1", "ok", nil), lineAssistantText("done", "end_turn"))
	claudetest.Poll(t, 10*time.Second, "no progress once the turn ended", func() bool {
		p = f.page(t)
		return p.State == conv.StateNeedsInput && p.Progress == nil
	})
}

// A working run whose pane shows the CLI retrying a failed API request
// gets the retry as a warning in its progress; transcript growth clears it.
func TestTroubleFromThePaneBecomesAWarning(t *testing.T) {
	sock := filepath.Join(claudetest.ShortTempDir(t, "labtr"), "sock")
	srv := tmux.New(sock)
	t.Cleanup(func() { srv.KillServer(context.Background()) })
	screen := filepath.Join(t.TempDir(), "screen.txt")
	os.WriteFile(screen, []byte("❯ run the tests\n\n✻ 529 Overloaded · retrying in 13s · attempt 6/10\n  ⎿  If it persists, check your inference gateway (127.0.0.1:1).\n\n"+
		"────────────────────────────────────────\n❯ \n────────────────────────────────────────\n  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt\n"), 0o644)
	if err := srv.NewSession(context.Background(), tmux.SessionOptions{Name: "tr", Argv: []string{"sh", "-c", "cat " + screen + "; exec sleep 600"}}); err != nil {
		t.Fatal(err)
	}
	f := newLiveFixture(t, func(r *stubRunner) {
		r.panes = map[string]Pane{"run-1": TmuxPane{Server: srv, Target: "tr"}}
	})
	events := f.events(t)

	appendLines(t, f.transcript, lineUser("run the tests"))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventMessagesChanged && e.State == conv.StateWorking })
	var p conv.Page
	claudetest.Poll(t, 20*time.Second, "the retry warning", func() bool {
		p = f.page(t)
		return p.Progress != nil && p.Progress.Warning != nil
	})
	w := p.Progress.Warning
	if p.State != conv.StateWorking || w.Level != conv.LevelWarning || !strings.Contains(w.Text, "529 Overloaded · retrying in 13s · attempt 6/10") {
		t.Fatalf("state %s warning %+v", p.State, w)
	}

	// The request went through after all: the stream moves and the
	// warning goes, even though the pane still shows the old line.
	appendLines(t, f.transcript, lineToolUse("toolu_2", "Bash", map[string]any{"command": "npm test"}))
	claudetest.Poll(t, 10*time.Second, "the warning cleared", func() bool {
		p = f.page(t)
		return p.Progress != nil && p.Progress.Warning == nil && p.Progress.Tool != nil
	})
}
