package chat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

// screenPane is a Pane that shows a fixed capture.
type screenPane struct{ capture string }

func (p *screenPane) SendKey(context.Context, string) error   { return nil }
func (p *screenPane) Paste(context.Context, string) error     { return nil }
func (p *screenPane) Capture(context.Context) (string, error) { return p.capture, nil }
func readScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "claude", "testdata", "panes", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A turn the transcript still shows working while the CLI sits idle at its
// prompt (an interrupt the transcript did not record) is needs_input, once
// the transcript has been quiet a moment or right after an interrupt; a
// busy CLI stays working.
func TestLookFollowsAnIdleCLI(t *testing.T) {
	pane := &screenPane{capture: readScreen(t, "prompt-busy")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	t0 := time.Now()
	mark := idleMark{bytes: 100}
	if st, _ := k.overlay(conv.StateWorking, mark, 0, nil, false, t0); st != conv.StateWorking {
		t.Fatalf("while the transcript moves: %s; want working (no look yet)", st)
	}
	if st, _ := k.overlay(conv.StateWorking, mark, 3*time.Second, nil, false, t0.Add(time.Second)); st != conv.StateWorking {
		t.Fatalf("busy CLI: %s; want working", st)
	}
	pane.capture = readScreen(t, "prompt-empty")
	if st, _ := k.overlay(conv.StateWorking, mark, 4*time.Second, nil, false, t0.Add(2*time.Second)); st != conv.StateNeedsInput {
		t.Fatalf("idle CLI under a quiet working transcript: %s; want needs_input", st)
	}
	// It stays needs_input without another look until the transcript or
	// the prompt moves.
	if st, _ := k.overlay(conv.StateWorking, mark, 0, nil, false, t0.Add(2100*time.Millisecond)); st != conv.StateNeedsInput {
		t.Fatalf("same moment: %s; want needs_input kept", st)
	}
	if st, _ := k.overlay(conv.StateWorking, idleMark{bytes: 200}, 0, nil, false, t0.Add(2200*time.Millisecond)); st != conv.StateWorking {
		t.Fatalf("after the transcript grew: %s; want working again", st)
	}
	// Right after an interrupt, no quiet period is needed.
	k2 := newLooker(&screenPane{capture: readScreen(t, "prompt-empty")}, claudeDriver("2.1.328"))
	k2.nudged = t0
	if st, _ := k2.overlay(conv.StateWorking, mark, 0, nil, false, t0.Add(100*time.Millisecond)); st != conv.StateNeedsInput {
		t.Fatalf("after an interrupt: %s; want needs_input", st)
	}
}

// A screen lab does not understand, at start-up, becomes the alert after a
// few seconds, with its text; a known screen clears it.
func TestLookAlertsOnAnUnknownScreen(t *testing.T) {
	pane := &screenPane{capture: readScreen(t, "trust-fresh")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	t0 := time.Now()
	k.overlay(conv.StateIdle, idleMark{}, 0, nil, false, t0)
	if k.alert != nil {
		t.Fatal("alerted at first sight")
	}
	k.overlay(conv.StateIdle, idleMark{}, 0, nil, false, t0.Add(4*time.Second))
	if k.alert == nil || k.alert.Level != conv.LevelError || !strings.Contains(k.alert.Text, "Yes, I trust this folder") {
		t.Fatalf("alert %+v; want an error with the screen's text", k.alert)
	}
	pane.capture = readScreen(t, "prompt-empty")
	k.known = false // still at start-up: keep looking
	k.overlay(conv.StateIdle, idleMark{}, 0, nil, false, t0.Add(6*time.Second))
	if k.alert != nil {
		t.Fatalf("alert %+v after the CLI reached its prompt; want none", k.alert)
	}
}

// A permission prompt for a call no hook announced is found from the
// transcript's running call and the pane, and is served only while the
// pane shows it.
func TestLookRevealsAnUnannouncedPermissionPrompt(t *testing.T) {
	pane := &screenPane{capture: readScreen(t, "permission-prompt")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	running := &conv.ToolCall{ID: "toolu_9", Name: "Bash", Input: "touch lab-permission-probe.txt && echo created", Status: conv.ToolRunning}
	t0 := time.Now()
	st, d := k.overlay(conv.StateNeedsInput, idleMark{}, 0, running, true, t0)
	if st != conv.StateQuestion || d == nil || d.ToolID != "toolu_9" || len(d.Permission.Options) != 4 {
		t.Fatalf("got %s %+v; want the prompt as a question", st, d)
	}
	if _, d := k.overlay(conv.StateNeedsInput, idleMark{}, 0, running, true, t0.Add(10*time.Millisecond)); d == nil {
		t.Fatal("not served between looks")
	}
	pane.capture = readScreen(t, "prompt-empty")
	if _, d := k.overlay(conv.StateNeedsInput, idleMark{}, 0, running, true, t0.Add(20*time.Millisecond)); d != nil {
		t.Fatalf("served %+v after the prompt left the pane", d)
	}
}
