package claude

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

func TestSpawnArgv(t *testing.T) {
	cases := []struct {
		name string
		o    SpawnOptions
		want string
	}{
		{"bare", SpawnOptions{Bin: "/b/claude", Settings: "/r/settings.json"}, "/b/claude --settings /r/settings.json"},
		{"everything", SpawnOptions{Bin: "claude", Settings: "/s", Model: "opus", PermissionMode: "plan", Prompt: "hi there"},
			"claude --settings /s --model opus --permission-mode plan -- hi there"},
		{"resume", SpawnOptions{Bin: "claude", Settings: "/s", Resume: "3cf95698-7725-44a4-9e0e-97489f2e6a50", Prompt: "go on"},
			"claude --settings /s --resume 3cf95698-7725-44a4-9e0e-97489f2e6a50 -- go on"},
		{"dash prompt stays a prompt", SpawnOptions{Bin: "claude", Prompt: "--help me"}, "claude -- --help me"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(SpawnArgv(c.o), " "); got != c.want {
				t.Fatalf("got %q; want %q", got, c.want)
			}
		})
	}
}

func TestValidPermissionModeAndModel(t *testing.T) {
	for _, m := range []string{"acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan", "default"} {
		if !ValidPermissionMode(m) {
			t.Errorf("mode %q rejected; want accepted", m)
		}
	}
	for _, m := range []string{"", "Plan", "yolo", "plan "} {
		if ValidPermissionMode(m) {
			t.Errorf("mode %q accepted; want rejected", m)
		}
	}
	for _, m := range []string{"opus", "claude-opus-4-1", "claude-sonnet-4-5[1m]", "us.anthropic.claude-3:0"} {
		if !ValidModel(m) {
			t.Errorf("model %q rejected; want accepted", m)
		}
	}
	for _, m := range []string{"", "-x", "--dangerously-skip-permissions", "a b", "opus\n", strings.Repeat("a", 200)} {
		if ValidModel(m) {
			t.Errorf("model %q accepted; want rejected", m)
		}
	}
}

// The provider looks up "claude" when no binary is configured, and its
// error says how to install one (clikit.ResolveBin's own cases are tested
// there).
func TestResolveBin(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	os.WriteFile(exe, []byte("#!/bin/sh\necho '9.8.7 (Claude Code)'\n"), 0o755)
	t.Setenv("PATH", dir)
	if got, err := (Provider{}).ResolveBin(""); err != nil || got != exe {
		t.Fatalf("PATH lookup got %q, %v; want %q", got, err, exe)
	}
	if _, err := (Provider{}).ResolveBin(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "install-claude.sh") {
		t.Errorf("got %v; want an error saying how to install the CLI", err)
	}
}

func TestCLIVersionParsesAndCaches(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	counter := filepath.Join(dir, "count")
	os.WriteFile(exe, []byte("#!/bin/sh\necho x >> '"+counter+"'\necho '9.8.7 (Claude Code)'\n"), 0o755)
	for i := 0; i < 3; i++ {
		v, err := CLIVersion(t.Context(), exe)
		if err != nil || v != "9.8.7" {
			t.Fatalf("got %q, %v; want 9.8.7", v, err)
		}
	}
	if b, _ := os.ReadFile(counter); strings.Count(string(b), "x") != 1 {
		t.Fatalf("binary ran %d times; want once (cached)", strings.Count(string(b), "x"))
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("#!/bin/sh\necho nothing here\n"), 0o755)
	if _, err := CLIVersion(t.Context(), bad); err == nil {
		t.Fatal("got no error for output without a version; want one")
	}
}

// A first prompt with images is typed by the run's opening (no start flag
// takes an image): the prompt leaves the command line. The run's settings
// let the agent read the uploads folder.
func TestProviderPrepareImages(t *testing.T) {
	run, cwd := t.TempDir(), t.TempDir()
	uploads := filepath.Join(run, "uploads")
	files := []conv.Upload{{Path: uploads + "/0123456789abcdef-a.png", MediaType: "image/png"}, {Path: uploads + "/0123456789abcdee-n.txt", MediaType: "text/plain"}}
	cmd, err := New().Prepare(context.Background(), agent.Launch{Bin: "/bin/claude", RunDir: run, Home: t.TempDir(), Cwd: cwd, Uploads: uploads,
		Request: conv.StartRequest{Cwd: cwd, Prompt: "look at this", Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	if argv := strings.Join(cmd.Argv, " "); strings.Contains(argv, "look at this") || strings.Contains(argv, "--add-dir") {
		t.Fatalf("argv %s; want no prompt and no --add-dir (it stops the start with a trust screen)", argv)
	}
	var pasted []string
	for _, s := range cmd.Opening {
		if s.Kind == agent.StepPaste {
			pasted = append(pasted, s.Text)
		}
	}
	if !slices.Equal(pasted, []string{files[0].Path, "look at this"}) || !cmd.Opening[len(cmd.Opening)-1].Commit {
		t.Fatalf("the opening pastes %q; want the image's path, then the prompt, then Enter", pasted)
	}
	b, err := os.ReadFile(filepath.Join(run, "settings.json"))
	if err != nil || !strings.Contains(string(b), `"Read(/`+uploads+`/**)"`) {
		t.Fatalf("settings %s (%v); want the uploads folder readable", b, err)
	}
	cmd, err = New().Prepare(context.Background(), agent.Launch{Bin: "/bin/claude", RunDir: t.TempDir(), Home: t.TempDir(), Cwd: cwd, Request: conv.StartRequest{Cwd: cwd, Prompt: "plain"}})
	if err != nil || cmd.Opening != nil || !strings.HasSuffix(strings.Join(cmd.Argv, " "), "-- plain") {
		t.Fatalf("a prompt without images: argv %q, opening %v, %v", cmd.Argv, cmd.Opening, err)
	}
}
