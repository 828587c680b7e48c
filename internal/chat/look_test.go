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
func (p *screenPane) Type(context.Context, string) error        { return nil }
func (p *screenPane) Capture(context.Context) (string, error)   { return p.capture, nil }
func readScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "claude", "testdata", "panes", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A turn the transcript still shows working ends on the pane's word only
// where the CLI records no end: right after lab's interrupt, or once a
// turn the pane showed stuck in API retries is back at the idle box. An
// idle-looking box alone, however quiet the transcript, is not the end of
// a turn (issue 21: a CLI just given its prompt, or starved of CPU, looks
// idle for seconds while it works).
func TestLookFollowsAnIdleCLI(t *testing.T) {
	pane := &screenPane{capture: readScreen(t, "prompt-busy")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	t0 := time.Now()
	prompted := t0.Add(-10 * time.Second)
	mark := idleMark{bytes: 100, promptAt: prompted}
	if st, _ := k.overlay(conv.StateWorking, mark, 0, nil, false, t0); st != conv.StateWorking {
		t.Fatalf("while the transcript moves: %s; want working (no look yet)", st)
	}
	if st, _ := k.overlay(conv.StateWorking, mark, 3*time.Second, nil, false, t0.Add(time.Second)); st != conv.StateWorking {
		t.Fatalf("busy CLI: %s; want working", st)
	}
	pane.capture = readScreen(t, "prompt-empty")
	for i := 2; i < 30; i++ {
		if st, _ := k.overlay(conv.StateWorking, mark, time.Duration(i)*time.Second, nil, false, t0.Add(time.Duration(i)*time.Second)); st != conv.StateWorking {
			t.Fatalf("idle-looking CLI under a quiet working transcript, %ds: %s; want working until the CLI says the turn ended", i, st)
		}
	}
	// Right after an interrupt, the idle box is the end of the turn.
	k2 := newLooker(&screenPane{capture: readScreen(t, "prompt-empty")}, claudeDriver("2.1.328"))
	k2.nudged = t0
	if st, _ := k2.overlay(conv.StateWorking, mark, 0, nil, false, t0.Add(100*time.Millisecond)); st != conv.StateNeedsInput {
		t.Fatalf("after an interrupt: %s; want needs_input", st)
	}
	// It stays needs_input without another look until the transcript or
	// the prompt moves.
	if st, _ := k2.overlay(conv.StateWorking, mark, 0, nil, false, t0.Add(200*time.Millisecond)); st != conv.StateNeedsInput {
		t.Fatalf("same moment: %s; want needs_input kept", st)
	}
	if st, _ := k2.overlay(conv.StateWorking, idleMark{bytes: 200, promptAt: prompted}, 0, nil, false, t0.Add(300*time.Millisecond)); st != conv.StateWorking {
		t.Fatalf("after the transcript grew: %s; want working again", st)
	}
	// Retries cancelled at the terminal: the pane showed the turn stuck,
	// then the idle box with the prompt put back.
	retrying := &screenPane{capture: strings.Replace(readScreen(t, "prompt-busy"), "✻ Whisking…", "✻ 500 Internal server error · retrying in 6s · attempt 5/10", 1)}
	k3 := newLooker(retrying, claudeDriver("2.1.328"))
	if st, _ := k3.overlay(conv.StateWorking, mark, 3*time.Second, nil, false, t0); st != conv.StateWorking || k3.warning == nil {
		t.Fatalf("retrying: %s, warning %v; want working with the warning", st, k3.warning)
	}
	retrying.capture = readScreen(t, "prompt-empty")
	if st, _ := k3.overlay(conv.StateWorking, mark, 4*time.Second, nil, false, t0.Add(time.Second)); st != conv.StateNeedsInput {
		t.Fatalf("retries cancelled: %s; want needs_input", st)
	}
	// After a newer prompt, the idle box is not that turn's end.
	next := idleMark{bytes: 300, promptAt: t0.Add(2 * time.Second)}
	if st, _ := k3.overlay(conv.StateWorking, next, 3*time.Second, nil, false, t0.Add(5*time.Second)); st != conv.StateWorking {
		t.Fatalf("idle box in a later turn: %s; want working", st)
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

// An alert is looked at again whatever the state went on to: the screen
// answered at the terminal, a quick turn ended before any look, the
// alert still goes once the pane shows the prompt.
func TestLookClearsAnAlertAfterTheTurnMovedOn(t *testing.T) {
	pane := &screenPane{capture: readScreen(t, "trust-fresh")}
	k := newLooker(pane, claudeDriver("2.1.328"))
	t0 := time.Now()
	k.overlay(conv.StateIdle, idleMark{}, 0, nil, false, t0)
	k.overlay(conv.StateIdle, idleMark{}, 0, nil, false, t0.Add(4*time.Second))
	if k.alert == nil {
		t.Fatal("no alert for the unknown screen")
	}
	pane.capture = readScreen(t, "prompt-empty")
	k.overlay(conv.StateNeedsInput, idleMark{}, 0, nil, false, t0.Add(6*time.Second))
	if k.alert != nil {
		t.Fatalf("alert %+v after the turn ended at the prompt; want none", k.alert)
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
