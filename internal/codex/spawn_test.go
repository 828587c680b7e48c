package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

func TestSpawnArgv(t *testing.T) {
	got := SpawnArgv(SpawnOptions{Bin: "/bin/codex", Model: "gpt-5.5", Hooks: []string{"-c", "hooks.Stop=[]", "--dangerously-bypass-hook-trust"}, Trust: []string{"/w.x"}, Prompt: "-starts with a dash"})
	want := []string{"/bin/codex", "-c", "disable_paste_burst=true", "-c", "hooks.Stop=[]", "--dangerously-bypass-hook-trust",
		"-c", `projects={"/w.x"={trust_level="trusted"}}`, "--sandbox", "workspace-write", "--ask-for-approval", "on-request", "--model", "gpt-5.5", "--", "-starts with a dash"}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("got %q;\nwant %q", got, want)
	}
	got = SpawnArgv(SpawnOptions{Bin: "codex", Sandbox: SandboxReadOnly, ResumeID: "0199a000-0000-7000-8000-000000000001"})
	if s := strings.Join(got, " "); s != "codex -c disable_paste_burst=true --sandbox read-only --ask-for-approval on-request resume 0199a000-0000-7000-8000-000000000001" {
		t.Fatalf("resume argv %q", s)
	}
}

// The provider looks up "codex" when no binary is configured, and its
// error says how to install one (clikit.ResolveBin's own cases are tested
// there).
func TestResolveBin(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "codex")
	os.WriteFile(exe, []byte("#!/bin/sh\necho 'codex-cli 9.8.7'\n"), 0o755)
	t.Setenv("PATH", dir)
	if got, err := (Provider{}).ResolveBin(""); err != nil || got != exe {
		t.Fatalf("PATH lookup got %q, %v; want %q", got, err, exe)
	}
	if _, err := (Provider{}).ResolveBin(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "install-codex.sh") {
		t.Errorf("got %v; want an error saying how to install the CLI", err)
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{"codex-cli 0.171.0\n": "0.171.0", "codex-cli 0.172.0-alpha.3": "0.172.0-alpha.3"} {
		if got, err := ParseVersion(in); err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseVersion("codex-cli dev"); err == nil {
		t.Error("ParseVersion accepted an output without a version")
	}
}

func TestValidators(t *testing.T) {
	for _, m := range []string{"gpt-5.5", "o3", "gpt-5.1-codex-max"} {
		if !ValidModel(m) {
			t.Errorf("ValidModel(%q) = false", m)
		}
	}
	for _, m := range []string{"", "-m", "a b", "x;y"} {
		if ValidModel(m) {
			t.Errorf("ValidModel(%q) = true", m)
		}
	}
	if !ValidSessionID("01A22FBA-9629-7da0-8e81-2e10e4f33449") || ValidSessionID("../x") || ValidSessionID("") {
		t.Error("ValidSessionID")
	}
}

func TestProviderPrepare(t *testing.T) {
	p := New("")
	var _ agent.Provider = p
	run := t.TempDir()
	cwd := t.TempDir()
	cmd, err := p.Prepare(context.Background(), agent.Launch{Bin: "/bin/codex", RunDir: run, Cwd: cwd, SeedTrust: true,
		Request: conv.StartRequest{Cwd: cwd, Prompt: "hello", PermissionMode: SandboxReadOnly, Model: "gpt-5.5"}})
	if err != nil {
		t.Fatal(err)
	}
	argv := strings.Join(cmd.Argv, " ")
	for _, want := range []string{"--sandbox read-only", "--model gpt-5.5", "-- hello", `projects={"` + cwd + `"=`, filepath.Join(run, "spool"), "--dangerously-bypass-hook-trust"} {
		if !strings.Contains(argv, want) {
			t.Errorf("argv lacks %q: %s", want, argv)
		}
	}
	if fi, err := os.Stat(filepath.Join(run, "spool")); err != nil || !fi.IsDir() {
		t.Fatalf("spool dir: %v", err)
	}
	for _, c := range []struct {
		req  conv.StartRequest
		want conv.ErrorKind
	}{
		{conv.StartRequest{PermissionMode: "plan"}, ""},
		{conv.StartRequest{PermissionMode: "auto"}, conv.EInvalid},
		{conv.StartRequest{Model: "-x"}, conv.EInvalid},
		{conv.StartRequest{PermissionMode: SandboxFullAccess, Model: "o3"}, ""},
		{conv.StartRequest{Resume: "01a22fba-9629-7da0-8e81-2e10e4f33449"}, ""},
		{conv.StartRequest{Resume: "../../etc"}, conv.EInvalid},
	} {
		err := p.CheckStart(c.req, 0)
		if c.want == "" && err != nil || c.want != "" && conv.KindOf(err) != c.want {
			t.Errorf("CheckStart(%+v) = %v; want %q", c.req, err, c.want)
		}
	}
	cmd, err = p.Prepare(context.Background(), agent.Launch{Bin: "/bin/codex", RunDir: t.TempDir(), Cwd: cwd, Request: conv.StartRequest{Cwd: cwd, Resume: "01a22fba-9629-7da0-8e81-2e10e4f33449", Prompt: "go on"}})
	if err != nil || !strings.HasSuffix(strings.Join(cmd.Argv, " "), "resume 01a22fba-9629-7da0-8e81-2e10e4f33449 -- go on") {
		t.Fatalf("resume argv %q, %v", cmd.Argv, err)
	}
	if info := p.Info(); info.Name != Name || info.DefaultMode != SandboxWorkspaceWrite || len(info.Modes) != len(SandboxModes)+1 || !info.Resume {
		t.Errorf("Info = %+v", info)
	}
	if cmd.Opening != nil || cmd.Env != nil {
		t.Errorf("a default run got an opening %v or environment %v", cmd.Opening, cmd.Env)
	}
}

// A run in Plan mode starts without its prompt on the command line: its
// opening switches the mode and then types it. A provider over a
// CODEX_HOME gives it to the run, with its environment and overrides.
func TestProviderPreparePlanMode(t *testing.T) {
	p := Provider{CodexHome: "/srv/codex", Env: map[string]string{"K": "v"}, Config: []string{`model_providers.local.base_url="http://x/v1"`}}
	cwd := t.TempDir()
	cmd, err := p.Prepare(context.Background(), agent.Launch{Bin: "/bin/codex", RunDir: t.TempDir(), Cwd: cwd,
		Request: conv.StartRequest{Cwd: cwd, Prompt: "lab:plan go", PermissionMode: ModePlan}})
	if err != nil {
		t.Fatal(err)
	}
	argv := strings.Join(cmd.Argv, " ")
	if strings.Contains(argv, "lab:plan") || !strings.Contains(argv, "--sandbox workspace-write") || !strings.Contains(argv, `-c model_providers.local.base_url="http://x/v1"`) {
		t.Errorf("argv %s; want the workspace sandbox, the override and no prompt", argv)
	}
	if cmd.Env["CODEX_HOME"] != "/srv/codex" || cmd.Env["K"] != "v" {
		t.Errorf("env %v", cmd.Env)
	}
	var keys []string
	pasted := ""
	for _, s := range cmd.Opening {
		switch s.Kind {
		case agent.StepKey:
			keys = append(keys, s.Key)
			if s.Until == nil {
				t.Errorf("key %s has no Until: a dropped key would never be sent again", s.Key)
			}
		case agent.StepPaste:
			pasted = s.Text
		}
	}
	if strings.Join(keys, " ") != "BTab Enter" || pasted != "lab:plan go" || !cmd.Opening[len(cmd.Opening)-1].Commit {
		t.Errorf("opening %v; want BTab, the prompt pasted, Enter committing", cmd.Opening)
	}
}

func TestVersionVerified(t *testing.T) {
	for v, want := range map[string]bool{"0.171.0": true, "0.172.0": false, "0.170.9": false, "": false} {
		if got := New("").VersionVerified(v); got != want {
			t.Errorf("VersionVerified(%q) = %v; want %v", v, got, want)
		}
	}
}

// A first prompt's images go on the command line (--image); its other
// files are already named in the prompt by the run layer.
func TestProviderPrepareImages(t *testing.T) {
	cwd := t.TempDir()
	files := []conv.Upload{
		{Path: "/s/u/0123456789abcdef-a.png", MediaType: "image/png"},
		{Path: "/s/u/0123456789abcdee-notes.txt", MediaType: "text/plain"},
		{Path: "/s/u/0123456789abcded-b.jpg", MediaType: "image/jpeg"},
	}
	cmd, err := New("").Prepare(context.Background(), agent.Launch{Bin: "/bin/codex", RunDir: t.TempDir(), Cwd: cwd,
		Request: conv.StartRequest{Cwd: cwd, Prompt: "look", Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	if argv := strings.Join(cmd.Argv, " "); !strings.Contains(argv, "--image /s/u/0123456789abcdef-a.png,/s/u/0123456789abcded-b.jpg -- look") || cmd.Opening != nil {
		t.Fatalf("argv %s, opening %v; want both images on --image before the prompt", argv, cmd.Opening)
	}
	cmd, err = New("").Prepare(context.Background(), agent.Launch{Bin: "/bin/codex", RunDir: t.TempDir(), Cwd: cwd,
		Request: conv.StartRequest{Cwd: cwd, Prompt: "look", PermissionMode: ModePlan, Files: files}})
	if err != nil || strings.Contains(strings.Join(cmd.Argv, " "), "--image") || len(cmd.Opening) == 0 {
		t.Fatalf("plan mode: argv %q, %d steps, %v; want the images pasted by the opening", cmd.Argv, len(cmd.Opening), err)
	}
}
