package codex

import (
	"os"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

func pane(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/captured/" + name + ".pane.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dialogOf folds a captured rollout that ends on a pending dialog.
func dialogOf(t *testing.T, name string) *conv.Dialog {
	t.Helper()
	b, err := os.ReadFile("testdata/captured/" + name + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	d := foldAll(b).PendingDialog()
	if d == nil {
		t.Fatalf("%s: no pending dialog", name)
	}
	return d
}

func opt(i int) *int { return &i }

// checkpoints returns a recipe's checkpoints and keys, in order.
func checkpoints(steps []agent.Step) (checks []*Expect, keys []string) {
	for _, s := range steps {
		switch s.Kind {
		case agent.StepExpect:
			checks = append(checks, s.Check.(*Expect))
		case agent.StepKey:
			k := s.Key
			if s.Commit {
				k += "!"
			}
			keys = append(keys, k)
		case agent.StepPaste:
			keys = append(keys, "paste:"+s.Text)
		}
	}
	return checks, keys
}

// The recipes' checkpoints, held against the panes the real CLI drew at
// the same points of the hand-driven captures: each must pass exactly on
// its own pane.
func TestRecipesAgainstCapturedPanes(t *testing.T) {
	form := &conv.Dialog{ToolID: "f", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{
		{Question: "Which color do you prefer?", Options: []conv.Option{{Label: "Red"}, {Label: "Blue"}, {Label: "Green"}}},
		{Question: "Which size should we stock?", Options: []conv.Option{{Label: "Small"}, {Label: "Large"}}},
	}}
	cases := []struct {
		name   string
		d      *conv.Dialog
		a      conv.Answer
		fresh  string
		keys   string
		panes  map[int]string // checkpoint index -> the captured pane it must pass
		denied map[int]string // checkpoint index -> a captured pane it must refuse
	}{
		{
			name: "single option", d: dialogOf(t, "single_pending"), fresh: "single_pending",
			a:     conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{1}}}},
			keys:  "Down Enter!",
			panes: map[int]string{0: "single_answered"}, denied: map[int]string{1: "single_answered"},
		},
		{
			name: "single with notes", d: dialogOf(t, "single_pending"), fresh: "single_pending",
			a:      conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{0}, OtherText: "embedded is fine"}}},
			keys:   "Tab paste:embedded is fine Enter!",
			panes:  map[int]string{1: "single_notes", 2: "single_notes.notes-open", 3: "single_notes.notes-typed"},
			denied: map[int]string{2: "single_notes", 3: "single_notes.notes-open"},
		},
		{
			name: "form", d: form, fresh: "form_answered",
			a:      conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{1}}, {OtherText: "medium would be best"}}},
			keys:   "Down Enter Down Down Tab paste:medium would be best Enter!",
			panes:  map[int]string{0: "form_answered", 1: "form_answered.q1-row2", 2: "form_answered.q2", 5: "form_answered.q2-none-notes"},
			denied: map[int]string{1: "form_answered", 2: "form_answered.q1-row2", 3: "form_answered.q2"},
		},
		{
			name: "plan stay", d: dialogOf(t, "plan_pending"), fresh: "plan_pending",
			a:     conv.Answer{Option: opt(2), Feedback: "make it smaller"},
			keys:  "Down Down Enter paste:make it smaller Enter!",
			panes: map[int]string{0: "plan_pending", 1: "plan_stay.row3", 2: "interrupted"}, denied: map[int]string{1: "plan_pending", 2: "plan_stay.row3", 3: "interrupted"},
		},
		{
			name: "plan approve", d: dialogOf(t, "plan_pending"), fresh: "plan_pending",
			a:     conv.Answer{Option: opt(0)},
			keys:  "Enter!",
			panes: map[int]string{0: "plan_approved", 1: "plan_approved"}, denied: map[int]string{0: "plan_stay.row3"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.a.ToolID = c.d.ToolID
			steps, err := Recipe(c.d, c.a, pane(t, c.fresh))
			if err != nil {
				t.Fatal(err)
			}
			checks, keys := checkpoints(steps)
			if got := strings.Join(keys, " "); got != c.keys {
				t.Fatalf("keys %q; want %q", got, c.keys)
			}
			for i, p := range c.panes {
				if _, err := checks[i].Match(pane(t, p)); err != nil {
					t.Errorf("checkpoint %d (%s) refuses %s: %v", i, checks[i].What(), p, err)
				}
			}
			for i, p := range c.denied {
				if _, err := checks[i].Match(pane(t, p)); err == nil {
					t.Errorf("checkpoint %d (%s) passes %s; want it refused", i, checks[i].What(), p)
				}
			}
		})
	}
}

// permissionOf builds the permission dialog a capture's PermissionRequest
// payload describes, dressed from its pane.
func permissionOf(t *testing.T, name string) *conv.Dialog {
	t.Helper()
	st, err := OpenSpool(spoolFrom(t, name)).Refresh()
	if err != nil || st.Permission == nil {
		t.Fatalf("%s: no approval in the spool: %+v, %v", name, st, err)
	}
	d := PermissionDialog(st.PermissionToolID, st.Permission.ToolName, st.Permission.ToolInput, st.Permission.Cwd, nil)
	if !(driver{}).Dress(d, pane(t, name)) {
		t.Fatalf("%s: Dress refused the approval prompt", name)
	}
	return d
}

func TestPermissionRecipe(t *testing.T) {
	d := permissionOf(t, "permission_pending")
	p := d.Permission
	if p.Question != "Would you like to run the following command?" || len(p.Options) != 3 ||
		p.Options[0].Role != conv.RoleAllowOnce || p.Options[1].Role != conv.RoleAllowAlways || p.Options[2].Role != conv.RoleDeny || p.Options[2].Feedback {
		t.Fatalf("dressed %+v; want allow once, allow always, deny without feedback", p)
	}
	steps, err := Recipe(d, conv.Answer{ToolID: d.ToolID, Option: opt(2)}, pane(t, "permission_pending"))
	if err != nil {
		t.Fatal(err)
	}
	checks, keys := checkpoints(steps)
	if strings.Join(keys, " ") != "Down Down Enter!" {
		t.Fatalf("keys %q", keys)
	}
	if _, err := checks[1].Match(pane(t, "permission_denied.row3")); err != nil {
		t.Fatalf("the deny checkpoint refuses the captured pane: %v", err)
	}
	if _, err := Recipe(d, conv.Answer{ToolID: d.ToolID, Option: opt(2), Feedback: "use a temp dir"}, pane(t, "permission_pending")); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("feedback on the denial: %v; want invalid (it is a reply of its own)", err)
	}
	// The edit's prompt is for another call: nothing is typed, and Dress
	// does not take its options for this command.
	if _, err := Recipe(d, conv.Answer{ToolID: d.ToolID, Option: opt(0)}, pane(t, "edit_approved")); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("on another prompt: got %v; want a conflict", err)
	}
	if (driver{}).Dress(d.Clone(), pane(t, "edit_approved")) {
		t.Fatal("Dress accepted the edit's prompt for a command")
	}
	e := permissionOf(t, "edit_denied")
	if e.Permission.Tool != ToolApplyPatch || e.Permission.Options[1].Label != "Yes, and don't ask again for these files" {
		t.Fatalf("edit approval %+v", e.Permission)
	}
}

func TestRecipeRefusesPanesItCannotMap(t *testing.T) {
	q := dialogOf(t, "single_pending")
	plan := dialogOf(t, "plan_pending")
	unknownRow := strings.Replace(pane(t, "plan_pending"), "No, stay in Plan mode", "Maybe later", 1)
	cases := []struct {
		name    string
		d       *conv.Dialog
		a       conv.Answer
		capture string
	}{
		{"question on a plan pane", q, conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, pane(t, "plan_pending")},
		{"question whose options differ", q, conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, strings.Replace(pane(t, "single_pending"), "MySQL", "MariaDB", 1)},
		{"plan on a question pane", plan, conv.Answer{Option: opt(0)}, pane(t, "single_pending")},
		{"plan row of unknown role", plan, conv.Answer{Option: opt(0)}, unknownRow},
		{"plan rows changed since dressed", withRows(plan, "Yes, implement this plan", "No, stay in Plan mode"), conv.Answer{Option: opt(0)}, pane(t, "plan_pending")},
		{"no picker", q, conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, pane(t, "interrupted")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.a.ToolID = c.d.ToolID
			if _, err := Recipe(c.d, c.a, c.capture); conv.KindOf(err) != conv.EConflict {
				t.Fatalf("got %v; want a conflict", err)
			}
		})
	}
}

func withRows(d *conv.Dialog, rows ...string) *conv.Dialog {
	c := d.Clone()
	c.PlanRows = rows
	return c
}

// A cursor someone moved at the terminal comes back by exactly the rows
// above it; typed notes or another screen are left to the fresh check.
func TestRewind(t *testing.T) {
	d := dialogOf(t, "single_pending")
	steps, err := Recipe(d, conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{2}}}}, pane(t, "single_pending"))
	if err != nil {
		t.Fatal(err)
	}
	fresh := steps[0].Check
	drv := driver{}
	moved := strings.Replace(strings.Replace(pane(t, "single_pending"), "› 1. SQLite", "  1. SQLite", 1), "    3. MySQL", "  › 3. MySQL", 1)
	if got := drv.Rewind(moved, fresh); got != 2 {
		t.Fatalf("Rewind on a cursor moved to row 3 = %d; want 2", got)
	}
	if got := drv.Rewind(pane(t, "single_pending"), fresh); got != 0 {
		t.Fatalf("Rewind on a fresh picker = %d; want 0", got)
	}
	if got := drv.Rewind(pane(t, "plan_pending"), fresh); got != 0 {
		t.Fatalf("Rewind on another screen = %d; want 0", got)
	}
}

func TestDressReadsPlanRows(t *testing.T) {
	d := dialogOf(t, "plan_pending")
	if !(driver{}).Dress(d, pane(t, "plan_pending")) || strings.Join(d.PlanRows, "|") != strings.Join(DefaultPlanRows, "|") {
		t.Fatalf("PlanRows %q; want the picker's rows", d.PlanRows)
	}
	if (driver{}).Dress(dialogOf(t, "plan_pending"), pane(t, "single_pending")) {
		t.Fatal("Dress accepted a question pane for a plan")
	}
}
