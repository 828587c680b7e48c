package claude_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/clitest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/tmux"
)

// menuRowRE is a row of the slash menu as a wide pane draws it: the
// command, two or more spaces, its description (custom ones end in
// "(user)" or "(project)").
var menuRowRE = regexp.MustCompile(`^\s+(❯ )?/(\S+)\s{2,}(.*)$`)

// seedCommands gives the rig's HOME and folder commands and skills of
// every shape lab reads.
func seedCommands(t *testing.T, r *claudetest.Rig) {
	clitest.WriteText(t, filepath.Join(r.Home, ".claude", "commands", "hello.md"), "---\ndescription: Say hello from the operator\n---\nSay hello to $ARGUMENTS\n")
	clitest.WriteText(t, filepath.Join(r.Work, ".claude", "commands", "ns", "deploy.md"), "---\ndescription: \"Deploy the project\"\nargument-hint: [env]\n---\nDeploy to $ARGUMENTS\n")
	clitest.WriteText(t, filepath.Join(r.Work, ".claude", "commands", "probe.md"), "Reply with lab-probe-ok and the words $ARGUMENTS\n")
	clitest.WriteText(t, filepath.Join(r.Home, ".claude", "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: A personal skill that tidies\n---\nTidy up.\n")
	clitest.WriteText(t, filepath.Join(r.Work, ".claude", "skills", "shipit", "SKILL.md"), "---\nname: shipit\ndescription: A project skill\n---\nShip it.\n")
	clitest.WriteText(t, filepath.Join(r.Work, ".claude", "skills", "quiet", "SKILL.md"), "---\nname: quiet\ndescription: Only the model calls this\nuser-invocable: false\n---\nShh.\n")
}

// readMenu types "/" into the pane and walks the whole menu with Down,
// returning each command's description as drawn (custom ones with their
// "(user)" / "(project)" tail).
func readMenu(t *testing.T, r *claudetest.Rig, target string) map[string]string {
	t.Helper()
	r.Paste(target, "/")
	r.WaitPaneFunc(target, "the slash menu", 30*time.Second, func(p string) bool {
		_, open := claude.Menu(p)
		return open
	})
	got := map[string]string{}
	// read records the rows a pane draws and returns its cursor row.
	read := func(pane string) string {
		cursor := ""
		for _, l := range strings.Split(pane, "\n") {
			m := menuRowRE.FindStringSubmatch(strings.TrimRight(l, " "))
			if m == nil {
				continue
			}
			got[m[2]] = strings.TrimSpace(m[3])
			if m[1] != "" {
				cursor = m[2]
			}
		}
		return cursor
	}
	pane := r.Pane(target)
	first := read(pane)
	if first == "" {
		t.Fatalf("the menu shows no cursor row:\n%s", pane)
	}
	cursor := first
	for range 400 {
		r.Keys(target, "Down")
		// Under load the CLI draws the moved cursor late: wait for it
		// (a pane read before it would look like the walk came back).
		prev := cursor
		r.WaitPaneFunc(target, "the menu's cursor to leave /"+prev, 30*time.Second, func(p string) bool {
			pane = p
			return menuCursor(p) != prev
		})
		if cursor = read(pane); cursor == "" {
			t.Fatalf("the menu shows no cursor row:\n%s", pane)
		}
		if cursor == first {
			return got
		}
	}
	t.Fatalf("the menu's cursor never came back to /%s", first)
	return nil
}

// menuCursor is the command a drawn menu's cursor is on ("" for none).
func menuCursor(pane string) string {
	for _, l := range strings.Split(pane, "\n") {
		if m := menuRowRE.FindStringSubmatch(strings.TrimRight(l, " ")); m != nil && m[1] != "" {
			return m[2]
		}
	}
	return ""
}

// TestMenuMatchesTable types "/" in the real TUI and compares the menu it
// draws with what lab lists for the version under test: the same
// commands (the built-in table, the operator's and the project's commands
// and skills, a skill that is not user-invocable left out), with the same
// descriptions (two name the current model or the sandbox's state; only
// their fixed start is compared) and sources.
func TestMenuMatchesTable(t *testing.T) {
	r := claudetest.NewRig(t, fakeclaudeapi.Options{})
	seedCommands(t, r)
	// A wide pane, so no description is cut.
	err := r.Tmux.NewSession(context.Background(), tmux.SessionOptions{
		Name: "menu", Dir: r.Work, Width: 400, Height: 45, Env: r.Env, Argv: []string{r.Bin},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.WaitPane("menu", "shift+tab to cycle", 60*time.Second)
	drawn := readMenu(t, r, "menu")

	version := claudetest.CLIVersion(t)
	listed := claude.Commands(version, r.Home, r.Work)
	dynamic := map[string]bool{"model": true, "fast": true}
	seen := map[string]bool{}
	for _, c := range listed {
		seen[c.Name] = true
		d, ok := drawn[c.Name]
		if !ok {
			t.Errorf("lab lists /%s (%s); the %s menu does not", c.Name, c.Source, version)
			continue
		}
		want := c.Description
		switch c.Source {
		case conv.SourceUser:
			want += " (user)"
		case conv.SourceProject:
			want += " (project)"
		}
		switch {
		case c.Name == "sandbox": // its state, not a description
		case dynamic[c.Name]:
			if !strings.HasPrefix(d, want) {
				t.Errorf("/%s: the menu says %q; want it to start %q", c.Name, d, want)
			}
		case d != want:
			t.Errorf("/%s: the menu says %q; lab says %q", c.Name, d, want)
		}
	}
	for name, d := range drawn {
		if !seen[name] {
			t.Errorf("the %s menu offers /%s (%q); lab does not list it", version, name, d)
		}
	}
	if _, ok := drawn["quiet"]; ok {
		t.Error("the menu shows a skill marked user-invocable: false")
	}
	if len(drawn) < 60 {
		t.Fatalf("read only %d commands off the menu; want the whole menu", len(drawn))
	}
}
