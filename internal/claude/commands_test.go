package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/clitest"
	"lab/internal/conv"
)

func TestCustomCommands(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	clitest.WriteText(t, filepath.Join(home, ".claude", "commands", "hello.md"), "---\ndescription: 'Say hello'\nargument-hint: [name]\n---\nHello $ARGUMENTS\n")
	clitest.WriteText(t, filepath.Join(home, ".claude", "commands", "deploy.md"), "---\ndescription: the operator's deploy\n---\nx\n")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "commands", "deploy.md"), "---\ndescription: the project's deploy\n---\nx\n")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "commands", "ns", "sub", "run.md"), "\n\n  Run the thing first line  \nmore\n")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "commands", "compact.md"), "---\ndescription: shadows a built-in\n---\nx\n")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "commands", "notes.txt"), "not markdown")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "commands", "two words.md"), "a name no slash command can have")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "skills", "folder", "SKILL.md"), "---\nname: shipit\ndescription: Ship it\n---\nbody\n")
	clitest.WriteText(t, filepath.Join(cwd, ".claude", "skills", "quiet", "SKILL.md"), "---\nname: quiet\nuser-invocable: false\ndescription: model only\n---\n")
	clitest.WriteText(t, filepath.Join(home, ".claude", "skills", "tidy", "SKILL.md"), "no frontmatter: tidies\n")

	got := map[string]conv.Command{}
	var order []string
	for _, c := range Commands("2.1.332", home, cwd) {
		if c.Source != conv.SourceBuiltin {
			got[c.Name] = c
			order = append(order, c.Name)
		}
	}
	want := map[string]conv.Command{
		"deploy":     {Description: "the project's deploy", Source: conv.SourceProject},
		"ns:sub:run": {Description: "Run the thing first line", Source: conv.SourceProject},
		"shipit":     {Description: "Ship it", Source: conv.SourceProject},
		"hello":      {Description: "Say hello", Source: conv.SourceUser, ArgsHint: "[name]"},
		"tidy":       {Description: "no frontmatter: tidies", Source: conv.SourceUser},
	}
	if len(got) != len(want) {
		t.Fatalf("custom commands %v; want %d of them", order, len(want))
	}
	for name, w := range want {
		c := got[name]
		if c.Description != w.Description || c.Source != w.Source || c.ArgsHint != w.ArgsHint || c.Args != conv.ArgsOptional {
			t.Errorf("/%s = %+v; want %+v taking optional text", name, c, w)
		}
	}
	// The project's first (by name), then the operator's, then built-ins.
	if strings.Join(order, " ") != "deploy ns:sub:run shipit hello tidy" {
		t.Errorf("order %v; want the project's, then the operator's, each by name", order)
	}
	for _, c := range Commands("2.1.332", home, cwd) {
		if c.Name == "compact" && c.Source != conv.SourceBuiltin {
			t.Errorf("a custom /compact shadows the built-in: %+v", c)
		}
	}
}

func TestBuiltinCommandsByVersion(t *testing.T) {
	clear := func(v string) string {
		for _, c := range BuiltinCommands(v) {
			if c.Name == "clear" {
				return c.Description
			}
		}
		return ""
	}
	older := "Start a new session with empty context; previous session stays on disk (resumable with /resume)"
	newer := "Start a new session with empty context; loops carry over, and the old one stays in /resume"
	for v, want := range map[string]string{
		"2.1.328": older, "2.1.330": older, "2.1.332": newer, "2.1.340 (Claude Code)": newer,
		"2.0.1": older, "nonsense": older,
	} {
		if got := clear(v); got != want {
			t.Errorf("/clear of %s: %q; want %q", v, got, want)
		}
	}
	for _, c := range BuiltinCommands(PinnedVersion) {
		switch {
		case c.Name == "clear" && !c.NewSession:
			t.Error("/clear does not start a new session")
		case c.Name == "model" && c.Args != conv.ArgsRequired:
			t.Errorf("/model %+v; want its argument required (alone it opens a picker)", c)
		case c.Name == "config" && c.Refused == "":
			t.Error("/config (a settings screen) is not refused")
		case c.Refused != "" && c.Args != conv.ArgsNone:
			t.Errorf("/%s is refused but takes %s text", c.Name, c.Args)
		}
	}
}
