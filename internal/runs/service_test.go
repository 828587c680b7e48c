package runs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/tmux"
)

// stubCLI is a stand-in claude for lifecycle tests that need a process in
// tmux but not the real CLI: it answers --version, records its argv and
// environment in its working directory, then sleeps until killed.
const stubCLI = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "2.1.328 (Claude Code)"; exit 0; fi
printf '%s\n' "$@" > .stub-argv
env > .stub-env
exec sleep 600
`

// fixture is a Service over a real SQLite file and a private tmux socket.
type fixture struct {
	t      *testing.T
	dbPath string
	cfg    Config
	db     *store.DB
	svc    *Service
	work   string
}

func newFixture(t *testing.T, bin string) *fixture {
	t.Helper()
	root := claudetest.ShortTempDir(t, "labruns")
	work := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	for _, d := range []string{work, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if bin == "" {
		bin = filepath.Join(root, "claude")
		if err := os.WriteFile(bin, []byte(stubCLI), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{t: t, dbPath: filepath.Join(root, "lab.db"), work: work}
	f.cfg = Config{
		StateDir:   filepath.Join(root, "state"),
		Agents:     claudeAgents(bin),
		TmuxSocket: filepath.Join(root, "tmux.sock"),
		SeedTrust:  true,
		Home:       home,
		ExtraEnv:   map[string]string{"HOME": home, "LAB_TEST_MARK": "stub"},
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tmux.New(f.cfg.TmuxSocket).KillServer(ctx)
	})
	f.restart()
	return f
}

// restart opens the database and a new Service as a restarted lab would.
func (f *fixture) restart() {
	f.t.Helper()
	if f.db != nil {
		f.db.Close()
	}
	db, err := store.Open(context.Background(), f.dbPath)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	svc, err := New(db, f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.db, f.svc = db, svc
}

func (f *fixture) start(req conv.StartRequest) conv.Run {
	f.t.Helper()
	if req.Cwd == "" {
		req.Cwd = f.work
	}
	run, err := f.svc.Start(context.Background(), req)
	if err != nil {
		f.t.Fatalf("Start: %v", err)
	}
	return run
}

func (f *fixture) hasSession(name string) bool {
	names, err := f.svc.listSessions(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func TestStartRejectsBadInput(t *testing.T) {
	f := newFixture(t, "")
	file := filepath.Join(f.work, "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct {
		name string
		req  conv.StartRequest
		kind conv.ErrorKind
		msg  string
	}{
		{"no cwd", conv.StartRequest{}, conv.EInvalid, "cwd is required"},
		{"relative cwd", conv.StartRequest{Cwd: "work/sub"}, conv.EInvalid, "absolute path"},
		{"missing cwd", conv.StartRequest{Cwd: filepath.Join(f.work, "nope")}, conv.EInvalid, "the folder " + filepath.Join(f.work, "nope") + " does not exist"},
		{"missing ~ folder", conv.StartRequest{Cwd: "~/nope"}, conv.EInvalid, "the folder ~/nope (" + filepath.Join(f.cfg.Home, "nope") + ") does not exist"},
		{"other user's home", conv.StartRequest{Cwd: "~root/x"}, conv.EInvalid, "absolute path or start with ~/"},
		{"file as cwd", conv.StartRequest{Cwd: file}, conv.EInvalid, "is not a folder"},
		{"unknown mode", conv.StartRequest{Cwd: f.work, PermissionMode: "yolo"}, conv.EInvalid, `unknown permission mode "yolo"; want one of acceptEdits, auto`},
		{"flag as model", conv.StartRequest{Cwd: f.work, Model: "--dangerously-skip-permissions"}, conv.EInvalid, "invalid model"},
		{"control character", conv.StartRequest{Cwd: f.work, Prompt: "hi\x1b[2J"}, conv.EInvalid, "control character"},
		{"huge prompt", conv.StartRequest{Cwd: f.work, Prompt: strings.Repeat("a", MaxPromptBytes+1)}, conv.ETooLarge, "longer than"},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct {
			name string
			req  conv.StartRequest
			kind conv.ErrorKind
			msg  string
		}{"bypass as root", conv.StartRequest{Cwd: f.work, PermissionMode: "bypassPermissions"}, conv.EInvalid, "root"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Start(context.Background(), c.req)
			if conv.KindOf(err) != c.kind || !strings.Contains(conv.MessageOf(err), c.msg) {
				t.Fatalf("got %v (%s); want %s containing %q", err, conv.KindOf(err), c.kind, c.msg)
			}
		})
	}
	runs, _ := f.svc.List(context.Background())
	names, _ := f.svc.listSessions(context.Background())
	if len(runs) != 0 || len(names) != 0 {
		t.Fatalf("got %d runs and sessions %v after bad input; want nothing started", len(runs), names)
	}
}

func TestStartExpandsTildeToTheOperatorsHome(t *testing.T) {
	f := newFixture(t, "")
	f.cfg.UserHome = filepath.Dir(f.work) // not the CLI's HOME, as in the demo
	f.restart()
	run := f.start(conv.StartRequest{Cwd: "~/" + filepath.Base(f.work) + "/"})
	if run.Cwd != f.work {
		t.Fatalf("got cwd %q; want ~ expanded to %s", run.Cwd, f.work)
	}
}

func TestStartWithMissingBinaryFailsFast(t *testing.T) {
	f := newFixture(t, "")
	for _, bin := range []string{filepath.Join(f.work, "no-claude"), "no-such-claude-in-path"} {
		f.cfg.Agents = claudeAgents(bin)
		f.restart()
		begin := time.Now()
		_, err := f.svc.Start(context.Background(), conv.StartRequest{Cwd: f.work, Prompt: "hi"})
		if conv.KindOf(err) != conv.EUnavailable || !strings.Contains(conv.MessageOf(err), "scripts/install-claude.sh") {
			t.Fatalf("%s: got %v (%s); want unavailable naming the installer", bin, err, conv.KindOf(err))
		}
		if d := time.Since(begin); d > 5*time.Second {
			t.Fatalf("%s: took %v to fail; want an immediate error", bin, d)
		}
	}
	if runs, _ := f.svc.List(context.Background()); len(runs) != 0 {
		t.Fatalf("got %d runs; want none recorded", len(runs))
	}
}

func TestLifecycleWithStubCLI(t *testing.T) {
	f := newFixture(t, "")
	ctx := context.Background()
	var changes []string
	f.cfg.OnChange = func(id string) { changes = append(changes, id) }
	f.restart()

	run := f.start(conv.StartRequest{Prompt: "\n  Fix the login bug\nthen more", Model: "opus", PermissionMode: "plan"})
	if run.Title != "Fix the login bug" || run.CLIVersion != "2.1.328" || run.State == conv.StateEnded || run.Cwd != f.work || run.ID == "" {
		t.Fatalf("got %+v; want the prompt's first line as title, version 2.1.328, live", run)
	}
	rec, err := f.svc.Record(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !f.hasSession(rec.TmuxSession) {
		t.Fatalf("tmux session %s missing after Start", rec.TmuxSession)
	}
	// The CLI got the run's settings, flags and prompt, and the extra env.
	argvFile := filepath.Join(f.work, ".stub-argv")
	envFile := filepath.Join(f.work, ".stub-env")
	claudetest.Poll(t, 10*time.Second, "the stub to record its argv and env", func() bool {
		b, _ := os.ReadFile(envFile)
		return strings.Contains(string(b), "PATH=") // written after the argv
	})
	argv, _ := os.ReadFile(argvFile)
	settings := filepath.Join(f.cfg.StateDir, "runs", run.ID, "settings.json")
	want := strings.Join([]string{"--settings", settings, "--model", "opus", "--permission-mode", "plan", "--", "\n  Fix the login bug\nthen more"}, "\n") + "\n"
	if string(argv) != want {
		t.Fatalf("got argv\n%q\nwant\n%q", argv, want)
	}
	env, _ := os.ReadFile(envFile)
	if !strings.Contains(string(env), "LAB_TEST_MARK=stub") {
		t.Fatalf("extra env missing from the CLI's environment:\n%s", env)
	}
	var hooks struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if b, err := os.ReadFile(settings); err != nil || json.Unmarshal(b, &hooks) != nil || len(hooks.Hooks) != len(claude.HookEvents) {
		t.Fatalf("settings %s: got %v hooks (%v); want %d", settings, len(hooks.Hooks), err, len(claude.HookEvents))
	}
	// Trust was seeded into the CLI's ~/.claude.json, and nothing else.
	var cj map[string]map[string]map[string]any
	b, _ := os.ReadFile(filepath.Join(f.cfg.Home, ".claude.json"))
	if err := json.Unmarshal(b, &cj); err != nil || cj["projects"][f.work]["hasTrustDialogAccepted"] != true {
		t.Fatalf("got .claude.json %s (%v); want %s trusted", b, err, f.work)
	}
	if strings.Contains(string(b), "hasCompletedOnboarding") {
		t.Fatal("Start wrote hasCompletedOnboarding into the operator's .claude.json")
	}

	// Stop kills the session and ends the run, once.
	stopped, err := f.svc.Stop(ctx, run.ID)
	if err != nil || stopped.State != conv.StateEnded || stopped.EndedAt == nil {
		t.Fatalf("got %+v, %v; want ended", stopped, err)
	}
	if f.hasSession(rec.TmuxSession) {
		t.Fatal("tmux session still alive after Stop")
	}
	again, err := f.svc.Stop(ctx, run.ID)
	if err != nil || !again.EndedAt.Equal(*stopped.EndedAt) {
		t.Fatalf("second Stop got %+v, %v; want the same ended run", again, err)
	}
	if _, err := f.svc.Stop(ctx, "nope"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("Stop of an unknown run: got %v; want not found", err)
	}
	if _, err := f.svc.Target(ctx, run.ID); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("Target of an ended run: got %v; want conflict", err)
	}

	// A run whose CLI exits on its own is swept.
	gone := f.start(conv.StartRequest{})
	if gone.Title != filepath.Base(f.work) {
		t.Fatalf("got title %q without a prompt; want the directory name", gone.Title)
	}
	goneRec, _ := f.svc.Record(ctx, gone.ID)
	if err := f.svc.Tmux().KillSession(ctx, goneRec.TmuxSession); err != nil {
		t.Fatal(err)
	}
	ended, err := f.svc.Sweep(ctx)
	if err != nil || len(ended) != 1 || ended[0] != gone.ID {
		t.Fatalf("Sweep got %v, %v; want [%s]", ended, err, gone.ID)
	}
	if r, _ := f.svc.Record(ctx, gone.ID); r.EndReason != "exited" {
		t.Fatalf("got end reason %q; want exited", r.EndReason)
	}

	// A restart adopts a live run without touching it.
	keep := f.start(conv.StartRequest{Prompt: "keep me"})
	target, err := f.svc.Target(ctx, keep.ID)
	if err != nil || target != "=lab-"+keep.ID+":" {
		t.Fatalf("got target %q, %v; want the exact session target", target, err)
	}
	if pane, err := f.svc.Tmux().Capture(ctx, target); err != nil {
		t.Fatalf("capture through the target: %q, %v", pane, err)
	}
	f.restart()
	rep, err := f.svc.Adopt(ctx)
	if err != nil || len(rep.Adopted) != 1 || rep.Adopted[0] != keep.ID || len(rep.Ended) != 0 {
		t.Fatalf("Adopt got %+v, %v; want %s adopted, nothing ended", rep, err, keep.ID)
	}
	keepRec, _ := f.svc.Record(ctx, keep.ID)
	if !f.hasSession(keepRec.TmuxSession) {
		t.Fatal("adopted run's session died")
	}
	// A session on the socket that no run owns is reported, not killed.
	if err := f.svc.Tmux().NewSession(ctx, tmux.SessionOptions{Name: "lab-stranger", Argv: []string{"sleep", "600"}}); err != nil {
		t.Fatal(err)
	}
	rep, _ = f.svc.Adopt(ctx)
	if len(rep.Foreign) != 1 || rep.Foreign[0] != "lab-stranger" || !f.hasSession("lab-stranger") {
		t.Fatalf("got foreign %v; want lab-stranger reported and alive", rep.Foreign)
	}
	// The tmux server dying (a reboot) ends every run at the next adopt.
	if err := f.svc.Tmux().KillServer(ctx); err != nil {
		t.Fatal(err)
	}
	f.restart()
	rep, err = f.svc.Adopt(ctx)
	if err != nil || len(rep.Ended) != 1 || rep.Ended[0] != keep.ID || len(rep.Adopted) != 0 {
		t.Fatalf("Adopt after the server died got %+v, %v; want %s ended", rep, err, keep.ID)
	}
	list, _ := f.svc.List(ctx)
	for _, r := range list {
		if r.State != conv.StateEnded {
			t.Fatalf("run %s is %s; want every run ended", r.ID, r.State)
		}
	}
	if len(changes) < 3 {
		t.Fatalf("got %d change notifications; want at least start, stop and sweep", len(changes))
	}
}

func TestSeedTrustOffLeavesClaudeJSONAlone(t *testing.T) {
	f := newFixture(t, "")
	f.cfg.SeedTrust = false
	f.restart()
	f.start(conv.StartRequest{})
	if _, err := os.Stat(filepath.Join(f.cfg.Home, ".claude.json")); !os.IsNotExist(err) {
		t.Fatalf("got %v; want no .claude.json written with SeedTrust off", err)
	}
}

// claudeAgents configures the Claude Code provider with bin.
func claudeAgents(bin string) []Agent {
	return []Agent{{Provider: claude.New(), Bin: bin}}
}
