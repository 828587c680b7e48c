package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

func readPaneText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "panes", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Options are read off the real prompts by their labels.
func TestPermissionOptionsFromRealPanes(t *testing.T) {
	type opt struct {
		role     conv.OptionRole
		feedback bool
	}
	cases := []struct {
		pane  string
		title string
		want  []opt
	}{
		{"permission-prompt", "Bash command", []opt{{conv.RoleAllowOnce, false}, {conv.RoleAllowAlways, false}, {conv.RoleSwitchMode, false}, {conv.RoleDeny, true}}},
		{"permission-rule", "Bash command", []opt{{conv.RoleAllowOnce, false}, {conv.RoleAllowAlways, false}, {conv.RoleSwitchMode, false}, {conv.RoleDeny, true}}},
		{"permission-edit", "Edit file", []opt{{conv.RoleAllowOnce, false}, {conv.RoleSwitchMode, false}, {conv.RoleDeny, true}}},
		{"permission-write", "Create file", []opt{{conv.RoleAllowOnce, false}, {conv.RoleSwitchMode, false}, {conv.RoleDeny, true}}},
		// The fetch prompt's No row names the feedback but takes no text.
		{"permission-fetch", "Fetch", []opt{{conv.RoleAllowOnce, false}, {conv.RoleAllowAlways, false}, {conv.RoleDeny, false}}},
	}
	for _, c := range cases {
		t.Run(c.pane, func(t *testing.T) {
			s := ParseScreen(readPaneText(t, c.pane))
			if s.Kind != ScreenPermission || s.Title != c.title {
				t.Fatalf("got kind %q title %q; want a permission prompt titled %q", s.Kind, s.Title, c.title)
			}
			opts := permissionOptions(s)
			if len(opts) != len(c.want) {
				t.Fatalf("got %d options %+v; want %d", len(opts), opts, len(c.want))
			}
			for i, w := range c.want {
				if opts[i].Role != w.role || opts[i].Feedback != w.feedback {
					t.Errorf("option %d %q: got role %s feedback %v; want %s %v", i, opts[i].Label, opts[i].Role, opts[i].Feedback, w.role, w.feedback)
				}
			}
		})
	}
}

func TestOptionRoleByLabel(t *testing.T) {
	cases := map[string]conv.OptionRole{
		"Yes": conv.RoleAllowOnce,
		"Yes, and don’t ask again for: sh -c 'echo x'":           conv.RoleAllowAlways,
		"Yes, and don't ask again for 127.0.0.1":                 conv.RoleAllowAlways,
		"Yes, and always allow access to /w from this project":   conv.RoleAllowAlways,
		"Yes, and switch to auto mode · auto mode handles these": conv.RoleSwitchMode,
		"No": conv.RoleDeny,
		"No, and tell Claude what to do differently (esc)": conv.RoleDeny,
		"Yes, and tell Claude what to do next":             conv.RoleUnknown,
		"Maybe later":                                      conv.RoleUnknown,
		"No, exit":                                         conv.RoleUnknown,
		"Yes, but only on Tuesdays":                        conv.RoleUnknown,
		"  Yes  ":                                          conv.RoleAllowOnce,
		"No, and tell Claude what to do differently, then wait for me (b)": conv.RoleDeny,
	}
	for label, want := range cases {
		if got := optionRole(label); got != want {
			t.Errorf("optionRole(%q) = %s; want %s", label, got, want)
		}
	}
}

// The dialog built from the hook payload carries the call readable on a
// phone, and dresses only on a pane showing that call's prompt.
func TestPermissionDialogAndDress(t *testing.T) {
	dir := t.TempDir()
	edit := filepath.Join(dir, "lab-edit.txt")
	if err := os.WriteFile(edit, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bash := PermissionDialog("t1", "Bash", []byte(`{"command":"touch lab-permission-probe.txt && echo created","description":"Create a probe file"}`))
	if p := bash.Permission; p.Command != "touch lab-permission-probe.txt && echo created" || p.Description != "Create a probe file" || bash.Kind != conv.DialogPermission || !bash.Answerable {
		t.Fatalf("bash dialog %+v", p)
	}
	if !dressPermission(bash, ParseScreen(readPaneText(t, "permission-prompt"))) {
		t.Fatal("the Bash prompt does not dress the Bash dialog")
	}
	if bash.Permission.Question != "Do you want to proceed?" || len(bash.Permission.Options) != 4 {
		t.Fatalf("dressed %+v", bash.Permission)
	}
	other := PermissionDialog("t2", "Bash", []byte(`{"command":"rm -rf build"}`))
	if dressPermission(other, ParseScreen(readPaneText(t, "permission-prompt"))) {
		t.Fatal("a prompt about another command dressed the dialog")
	}

	ed := PermissionDialog("t3", "Edit", []byte(`{"file_path":"`+edit+`","old_string":"hello","new_string":"hello, edited"}`))
	wantDiff := "--- " + edit + "\n+++ " + edit + "\n@@ -1 +1 @@\n-hello\n+hello, edited"
	if ed.Permission.Path != edit || ed.Permission.Diff != wantDiff {
		t.Fatalf("edit diff:\n%s\nwant\n%s", ed.Permission.Diff, wantDiff)
	}
	// The captured prompt names lab-edit.txt.
	if !dressPermission(ed, ParseScreen(readPaneText(t, "permission-edit"))) {
		t.Fatal("the Edit prompt does not dress the Edit dialog")
	}

	wr := PermissionDialog("t4", "Write", []byte(`{"file_path":"`+filepath.Join(dir, "lab-write.txt")+`","content":"first line\nsecond line\n"}`))
	if !strings.HasSuffix(wr.Permission.Diff, "@@ -0,0 +1,2 @@\n+first line\n+second line") {
		t.Fatalf("new file diff:\n%s", wr.Permission.Diff)
	}
	// An edit whose old string is not in the file shows the edit alone.
	gone := PermissionDialog("t5", "Edit", []byte(`{"file_path":"`+edit+`","old_string":"absent","new_string":"x"}`))
	if !strings.Contains(gone.Permission.Diff, "-absent\n+x") {
		t.Fatalf("fallback diff:\n%s", gone.Permission.Diff)
	}
	f := PermissionDialog("t6", "WebFetch", []byte(`{"url":"http://127.0.0.1:9/lab","prompt":"Summarise the page"}`))
	if f.Permission.Summary != "prompt: Summarise the page\nurl: http://127.0.0.1:9/lab" {
		t.Fatalf("summary %q", f.Permission.Summary)
	}
	if !dressPermission(f, ParseScreen(readPaneText(t, "permission-fetch"))) {
		t.Fatal("the fetch prompt does not dress the fetch dialog")
	}
}

func dressed(t *testing.T, tool, input, pane string) *conv.Dialog {
	t.Helper()
	d := PermissionDialog("toolu_1", tool, []byte(input))
	if !dressPermission(d, ParseScreen(readPaneText(t, pane))) {
		t.Fatalf("%s does not dress the dialog", pane)
	}
	return d
}

const probe = `{"command":"touch lab-permission-probe.txt && echo created","description":"Create a probe file"}`

func TestPermissionRecipes(t *testing.T) {
	d := dressed(t, "Bash", probe, "permission-prompt")
	opt := func(i int) *int { return &i }
	keys := func(steps []agent.Step) []string {
		var out []string
		for _, s := range steps {
			switch s.Kind {
			case agent.StepKey:
				out = append(out, s.Key)
			case agent.StepPaste:
				out = append(out, "paste:"+s.Text)
			}
		}
		return out
	}
	cases := []struct {
		name string
		a    conv.Answer
		keys []string
	}{
		{"allow once", conv.Answer{ToolID: "toolu_1", Option: opt(0)}, []string{"Enter"}},
		{"allow always", conv.Answer{ToolID: "toolu_1", Option: opt(1)}, []string{"Down", "Enter"}},
		{"deny", conv.Answer{ToolID: "toolu_1", Option: opt(3)}, []string{"Down", "Down", "Down", "Enter"}},
		{"deny with feedback", conv.Answer{ToolID: "toolu_1", Option: opt(3), Feedback: "Use mkdir instead"},
			[]string{"Down", "Down", "Down", "Tab", "paste:Use mkdir instead", "Enter"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps, err := Recipe(d, c.a, PlanPicker("2.1.328"))
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(steps); !slices.Equal(got, c.keys) {
				t.Fatalf("keys %q; want %q", got, c.keys)
			}
			for i, s := range steps {
				if s.Kind != agent.StepExpect && s.Acts && (i == 0 || steps[i-1].Kind != agent.StepExpect) {
					t.Errorf("step %d (%s) acts without a checkpoint before it", i, s)
				}
			}
			if !steps[len(steps)-1].Commit {
				t.Fatal("the last step does not commit")
			}
		})
	}
	// The checkpoints match the real panes of each stage.
	fresh := steps(t, d, conv.Answer{ToolID: "toolu_1", Option: opt(3), Feedback: "Use mkdir instead"})
	for i, pane := range []string{"permission-prompt", "permission-deny-row", "permission-deny-amend", "permission-deny-typed"} {
		if _, err := fresh[i].Match(readPaneText(t, pane)); err != nil {
			t.Errorf("checkpoint %d (%s) on %s: %v", i, fresh[i].What(), pane, err)
		}
	}
	// A prompt whose options changed fails the fresh checkpoint.
	if _, err := fresh[0].Match(readPaneText(t, "permission-rule")); err == nil {
		t.Error("the fresh checkpoint passed on another prompt's options")
	}
}

// steps returns the checkpoints of a's recipe.
func steps(t *testing.T, d *conv.Dialog, a conv.Answer) []agent.Check {
	t.Helper()
	all, err := Recipe(d, a, PlanPicker("2.1.328"))
	if err != nil {
		t.Fatal(err)
	}
	var out []agent.Check
	for _, s := range all {
		if s.Kind == agent.StepExpect {
			out = append(out, s.Check)
		}
	}
	return out
}

func TestValidatePermission(t *testing.T) {
	d := dressed(t, "Bash", probe, "permission-prompt")
	fetch := dressed(t, "WebFetch", `{"url":"http://127.0.0.1:9/lab","prompt":"Summarise the page"}`, "permission-fetch")
	undressed := PermissionDialog("toolu_1", "Bash", []byte(probe))
	unknown := d.Clone()
	unknown.Permission.Options[2].Role = conv.RoleUnknown
	opt := func(i int) *int { return &i }
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		kind conv.ErrorKind
	}{
		{"no option", d, conv.Answer{ToolID: "toolu_1"}, conv.EInvalid},
		{"answers", d, conv.Answer{ToolID: "toolu_1", Option: opt(0), Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, conv.EInvalid},
		{"out of range", d, conv.Answer{ToolID: "toolu_1", Option: opt(4)}, conv.EInvalid},
		{"negative", d, conv.Answer{ToolID: "toolu_1", Option: opt(-1)}, conv.EInvalid},
		{"feedback on allow", d, conv.Answer{ToolID: "toolu_1", Option: opt(0), Feedback: "x"}, conv.EInvalid},
		{"feedback on a row that takes none", fetch, conv.Answer{ToolID: "toolu_1", Option: opt(2), Feedback: "x"}, conv.EInvalid},
		{"multi-line feedback", d, conv.Answer{ToolID: "toolu_1", Option: opt(3), Feedback: "a\nb"}, conv.EInvalid},
		{"stale tool id", d, conv.Answer{ToolID: "toolu_0", Option: opt(0)}, conv.EConflict},
		{"options unknown", undressed, conv.Answer{ToolID: "toolu_1", Option: opt(0)}, conv.EConflict},
		{"unknown option", unknown, conv.Answer{ToolID: "toolu_1", Option: opt(2)}, conv.EConflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateAnswer(c.d, c.a, PlanPicker("2.1.328"))
			if conv.KindOf(err) != c.kind || err == nil {
				t.Fatalf("got %v (%s); want %s", err, conv.KindOf(err), c.kind)
			}
		})
	}
	for _, ok := range []conv.Answer{{ToolID: "toolu_1", Option: opt(0)}, {ToolID: "toolu_1", Option: opt(3), Feedback: "Use mkdir instead"}} {
		if err := ValidateAnswer(d, ok, PlanPicker("2.1.328")); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

func TestDriverLookAndGate(t *testing.T) {
	drv := New().NewDriver("2.1.328")
	cases := map[string]agent.LookKind{
		"permission-prompt": agent.LookPermission,
		"single-fresh":      agent.LookPicker,
		"plan-fresh":        agent.LookPicker,
		"multi-review":      agent.LookPicker,
		"prompt-empty":      agent.LookPrompt,
		"prompt-busy":       agent.LookBusy,
		"trust-fresh":       agent.LookUnknown,
	}
	for pane, want := range cases {
		if got := drv.Look(readPaneText(t, pane)); got.Kind != want {
			t.Errorf("%s: look %s; want %s", pane, got.Kind, want)
		}
	}
	if txt := drv.Look(readPaneText(t, "trust-fresh")).Text; !strings.Contains(txt, "Yes, I trust this folder") {
		t.Errorf("unknown screen text %q lacks the screen's rows", txt)
	}
	for pane, want := range map[string]string{"trust-fresh": "Down", "trust-yes-row": "Enter"} {
		key, ok := drv.Gate(readPaneText(t, pane), "/tmp/lab/work")
		if !ok || key != want {
			t.Errorf("%s: gate %q %v; want %q", pane, key, ok, want)
		}
	}
	if _, ok := drv.Gate(readPaneText(t, "trust-fresh"), "/tmp/lab/elsewhere"); ok {
		t.Error("the gate accepted the trust screen of another folder")
	}
	if _, ok := drv.Gate(readPaneText(t, "prompt-empty"), "/tmp/lab/work"); ok {
		t.Error("the gate took the prompt for a trust screen")
	}
}
