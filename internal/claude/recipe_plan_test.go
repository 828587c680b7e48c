package claude

import (
	"slices"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

// A plan picker is answered by what its rows say, read off the pane, not
// by a table of positions: a synthetic picker with its rows reordered
// gets the row it names, or a conflict, never a wrong Enter.
func TestPlanRowsByLabel(t *testing.T) {
	reordered := []string{"Tell Claude what to change", "Yes, manually approve edits", "Yes, and use auto mode"}
	d := &conv.Dialog{ToolID: "p1", Kind: conv.DialogPlan, Plan: "# Plan", Answerable: true, PlanRows: reordered}
	g := PlanPicker("2.1.332")
	opt := func(i int) *int { return &i }
	keys := func(steps []agent.Step) []string {
		var out []string
		for _, s := range steps {
			if s.Kind == agent.StepKey {
				out = append(out, s.Key)
			}
			if s.Kind == agent.StepPaste {
				out = append(out, "paste:"+s.Text)
			}
		}
		return out
	}
	// Approve with auto mode: the third row here.
	steps, err := Recipe(d, conv.Answer{ToolID: "p1", Option: opt(2)}, g)
	if err != nil || !slices.Equal(keys(steps), []string{"Down", "Down", "Enter"}) {
		t.Fatalf("approve row 2: %q, %v", keys(steps), err)
	}
	// Feedback goes with the first row, whose label says so.
	steps, err = Recipe(d, conv.Answer{ToolID: "p1", Option: opt(0), Feedback: "smaller steps"}, g)
	if err != nil || !slices.Equal(keys(steps), []string{"paste:smaller steps", "Enter"}) {
		t.Fatalf("feedback row 0: %q, %v", keys(steps), err)
	}
	if _, err := Recipe(d, conv.Answer{ToolID: "p1", Option: opt(2), Feedback: "x"}, g); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("feedback on an approve row: %v; want invalid", err)
	}
	// The fresh checkpoint requires exactly these rows: the real 2.1.328
	// picker (in its usual order) fails it, so nothing would be pressed.
	steps, _ = Recipe(d, conv.Answer{ToolID: "p1", Option: opt(2)}, g)
	if _, err := steps[0].Check.Match(readPaneText(t, "plan-fresh")); err == nil || !strings.Contains(err.Error(), "row 1 shows") {
		t.Fatalf("the fresh checkpoint passed on a picker with other rows: %v", err)
	}
	// A row lab cannot read is a conflict.
	odd := d.Clone()
	odd.PlanRows = []string{"Yes, and use auto mode", "Maybe later", "Tell Claude what to change"}
	if _, err := Recipe(odd, conv.Answer{ToolID: "p1", Option: opt(1)}, g); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("an unreadable row: %v; want a conflict", err)
	}
	// Rows read from the real pane map as the version table says.
	real := &conv.Dialog{ToolID: "p1", Kind: conv.DialogPlan, Answerable: true}
	if !New().NewDriver("2.1.328").Dress(real, readPaneText(t, "plan-fresh")) {
		t.Fatal("the real plan picker does not dress the dialog")
	}
	got := g.ForDialog(real)
	want := PlanPicker("2.1.328")
	if !slices.Equal(got.Rows, want.Rows) || !slices.Equal(got.Approve, want.Approve) || got.Feedback != want.Feedback {
		t.Fatalf("rows by label %+v; want the observed geometry %+v", got, want)
	}
}
