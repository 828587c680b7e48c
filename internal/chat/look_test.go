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

func (p *screenPane) SendKeys(context.Context, ...string) error { return nil }
func (p *screenPane) Paste(context.Context, string) error       { return nil }
func (p *screenPane) Capture(context.Context) (string, error)   { return p.capture, nil }
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

// readCodexScreen reads a pane the Codex capture recorded.
func readCodexScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "codex", "testdata", "captured", name+".pane.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// codexStayedInPlanMode is the pane's tail after "No, stay in Plan mode"
// with nothing typed, as 0.171.0 drew it (trailing blanks trimmed).
const codexStayedInPlanMode = "\n\n\n\n› Ask Codex to do anything\n\n  GPT-5.5 medium · /tmp/work · Scripted session\n  ← for agents · ? for shortcuts                             Plan mode (shift+tab to cycle) · ⚠ 2 warnings · f2 to view\n"

// A plan is served with the rows its picker shows, and with the rows the
// CLI is known to show before that; once the pane has shown no picker for
// a while it is no longer pending (Codex records no answer to "No, stay
// in Plan mode": its rollout keeps showing the plan pending).
func TestLookPlanFollowsItsPicker(t *testing.T) {
	plan := &conv.Dialog{ToolID: "msg_1", Kind: conv.DialogPlan, Plan: "# Plan", Answerable: true}
	roles := func(d *conv.Dialog) string {
		var out []string
		for _, o := range d.PlanOptions {
			out = append(out, string(o.Role)+"/"+o.Mode)
		}
		return strings.Join(out, " ")
	}
	const want = "approve/ approve/fresh feedback/"

	pane := &screenPane{capture: readCodexScreen(t, "plan_pending")}
	k := newLooker(pane, codexDriver())
	t0 := time.Now()
	d, again := k.dress(plan, t0)
	if d == nil || len(d.PlanRows) != 3 || roles(d) != want || again {
		t.Fatalf("plan on screen: %+v (again %v); want its three rows with roles %q", d, again, want)
	}
	pane.capture = codexStayedInPlanMode // the idle box: the picker closed
	if d, _ := k.dress(plan, t0.Add(500*time.Millisecond)); d == nil {
		t.Fatal("not served between looks")
	}
	if d, _ := k.dress(plan, t0.Add(4*time.Second)); d != nil {
		t.Fatalf("served %+v while the pane shows the idle box; want the plan no longer pending", d)
	}
	if st := k.planGoneState(); st != conv.StateNeedsInput {
		t.Fatalf("state %s; want needs_input (the CLI waits at its prompt)", st)
	}

	// A plan the pane does not show yet: served with 0.171.0's rows, and
	// looked for again soon, until the patience runs out.
	k = newLooker(&screenPane{capture: readCodexScreen(t, "interrupted")}, codexDriver()) // a turn ending
	d, again = k.dress(plan, t0)
	if d == nil || roles(d) != want || !again {
		t.Fatalf("plan not on screen yet: %+v (again %v); want the known rows and another look soon", d, again)
	}
	if d, _ := k.dress(plan, t0.Add(4*time.Second)); d != nil {
		t.Fatalf("served %+v after the picker never showed; want none", d)
	}
}

// Every dialog is served with when its picker first showed on the pane
// (what lab's answer counts its picker grace from), and only once it
// showed: never a time before the pane was read.
func TestLookNotesWhenAPickerShowed(t *testing.T) {
	q := questionDialog("toolu_q", tqDB)
	pane := &screenPane{capture: readScreen(t, "prompt-busy")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	t0 := time.Now()
	d, again := k.dress(q, t0)
	if d == nil || !d.Shown.IsZero() || !again {
		t.Fatalf("before its picker shows: %+v (again %v); want it served, no Shown, another look soon", d, again)
	}
	pane.capture = readScreen(t, "single-fresh")
	before := time.Now()
	d, again = k.dress(q, t0.Add(100*time.Millisecond))
	if d == nil || d.Shown.Before(before) || again {
		t.Fatalf("picker on the pane: %+v (again %v); want Shown no earlier than the look (%v)", d, again, before)
	}
	shown := d.Shown
	pane.capture = readScreen(t, "prompt-busy") // no further look is needed
	if d, _ := k.dress(q, t0.Add(time.Second)); d == nil || !d.Shown.Equal(shown) {
		t.Fatalf("later: %+v; want the first sighting kept (%v)", d, shown)
	}

	perm := &conv.Dialog{ToolID: "toolu_p", Kind: conv.DialogPermission, Permission: &conv.Permission{Tool: "Bash", Command: "touch lab-permission-probe.txt && echo created"}, Answerable: true}
	pane.capture = readScreen(t, "permission-prompt")
	before = time.Now()
	if d, _ := k.dress(perm, t0); d == nil || d.Shown.Before(before) {
		t.Fatalf("permission prompt: %+v; want it dressed with Shown", d)
	}
	plan := planDialog("toolu_plan")
	pane.capture = readScreen(t, "plan-fresh")
	before = time.Now()
	if d, _ := k.dress(plan, t0); d == nil || d.Shown.Before(before) || len(d.PlanRows) == 0 {
		t.Fatalf("plan picker: %+v; want it dressed with Shown", d)
	}
}
