package runs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/store"
)

// realFixture is a fixture running the real CLI against the scripted model
// in an isolated HOME that has onboarding done but no folder trusted: the
// run service must seed the trust itself.
func realFixture(t *testing.T) (*fixture, *fakeclaudeapi.Server) {
	t.Helper()
	api := claudetest.API(t, fakeclaudeapi.Options{})
	f := newFixture(t, claudetest.CLI(t))
	home := claudetest.Home(t)
	f.cfg.Home = home
	f.cfg.ExtraEnv = claudetest.Env(home, api.URL())
	f.restart()
	return f, api
}

// waitRun polls Get until cond holds.
func waitRun(t *testing.T, svc *Service, id, what string, cond func(conv.Run) bool) conv.Run {
	t.Helper()
	var run conv.Run
	claudetest.Poll(t, 60*time.Second, what, func() bool {
		var err error
		run, err = svc.Get(context.Background(), id)
		return err == nil && cond(run)
	})
	return run
}

func TestRunEndToEndWithTheRealCLI(t *testing.T) {
	f, api := realFixture(t)
	ctx := context.Background()
	run := f.start(conv.StartRequest{Prompt: "lab:single which database?"})
	version := claudetest.CLIVersion(t)
	if run.CLIVersion != version || run.CLIVerified != claude.VersionVerified(version) {
		t.Fatalf("got CLI version %q (verified %v); want %s (verified %v), what the binary under test reports", run.CLIVersion, run.CLIVerified, version, claude.VersionVerified(version))
	}

	// SessionStart is spooled and locates the transcript, which exists.
	run = waitRun(t, f.svc, run.ID, "the SessionStart spool", func(r conv.Run) bool { return r.TranscriptPath != "" })
	if !strings.HasSuffix(run.TranscriptPath, "/"+run.SessionID+".jsonl") || !strings.HasPrefix(run.TranscriptPath, f.cfg.Home+"/.claude/projects/") {
		t.Fatalf("got transcript %q for session %q; want it under the isolated HOME, named by the session", run.TranscriptPath, run.SessionID)
	}
	claudetest.Poll(t, 30*time.Second, "the transcript file", func() bool {
		_, err := os.Stat(run.TranscriptPath)
		return err == nil
	})

	// The prompt reached the model.
	ctxw, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := api.Wait(ctxw, func(r fakeclaudeapi.Request) bool { return r.Kind == "messages" && r.Scenario == "single" })
	if err != nil || req.Prompt != "lab:single which database?" {
		t.Fatalf("got %+v, %v; want the prompt at the scripted model", req.Prompt, err)
	}

	// The question is pending from the PreToolUse spool.
	run = waitRun(t, f.svc, run.ID, "a pending question", func(r conv.Run) bool { return r.Pending })
	if run.State != conv.StateQuestion {
		t.Fatalf("got state %s with a pending dialog; want question", run.State)
	}
	sd, err := f.svc.Side(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	sp := sd.(*claude.Spool)
	st, _ := sp.Refresh()
	if len(st.Pending) != 1 || st.Pending[0].ToolName != "AskUserQuestion" || st.Pending[0].SessionID != run.SessionID {
		t.Fatalf("got pending %+v; want one AskUserQuestion of the run's session", st.Pending)
	}
	var input struct {
		Questions []struct {
			Question string `json:"question"`
		} `json:"questions"`
	}
	if json.Unmarshal(st.Pending[0].ToolInput, &input) != nil || len(input.Questions) != 1 || input.Questions[0].Question != "Which database should we use?" {
		t.Fatalf("got tool_input %s; want the scripted question", st.Pending[0].ToolInput)
	}
	// The CLI's registry knows the pane it runs in.
	rec, _ := f.svc.Record(ctx, run.ID)
	e, ok := registryEntry(ctx, f.svc, rec)
	if !ok || e.SessionID != run.SessionID || !strings.HasPrefix(e.Tmux, rec.TmuxSession+":") || e.Version != version {
		t.Fatalf("got registry entry %+v, %v; want the run's session in its tmux session", e, ok)
	}

	// Declining leaves no PostToolUse; /clear starts a new session, which
	// the run follows, and the old pending dialog no longer counts.
	target, _ := f.svc.Target(ctx, run.ID)
	tm := f.svc.Tmux()
	if err := tm.SendKey(ctx, target, "Escape"); err != nil {
		t.Fatal(err)
	}
	claudetest.Poll(t, 30*time.Second, "the decline in the transcript", func() bool {
		b, _ := os.ReadFile(run.TranscriptPath)
		return strings.Contains(string(b), "[Request interrupted by user for tool use]")
	})
	if err := tm.Paste(ctx, target, "/clear"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the paste land before Enter (facts: replies)
	if err := tm.SendKey(ctx, target, "Enter"); err != nil {
		t.Fatal(err)
	}
	old := run
	run = waitRun(t, f.svc, run.ID, "the session after /clear", func(r conv.Run) bool { return r.SessionID != old.SessionID })
	if run.Pending || run.TranscriptPath == old.TranscriptPath || !strings.HasSuffix(run.TranscriptPath, run.SessionID+".jsonl") {
		t.Fatalf("after /clear got %+v; want a new transcript and nothing pending", run)
	}
	owners, _ := f.db.RunSessions(ctx)
	if owners[old.SessionID] != run.ID || owners[run.SessionID] != run.ID {
		t.Fatalf("got session owners %v; want both sessions owned by %s", owners, run.ID)
	}

	stopped, err := f.svc.Stop(ctx, run.ID)
	if err != nil || stopped.State != conv.StateEnded {
		t.Fatalf("Stop got %+v, %v; want ended", stopped, err)
	}
	if f.hasSession(rec.TmuxSession) {
		t.Fatal("the CLI's tmux session survived Stop")
	}
}

// The restart test runs "lab" in a child process (this test binary, see
// TestMain) that starts a run and is then killed; the parent adopts it.
const helperEnv = "LAB_RUNS_TEST_HELPER"

// helperConfig is what the child needs, as JSON in its environment.
type helperConfig struct {
	DB, Cwd, Prompt, Mode                 string
	StateDir, ClaudeBin, TmuxSocket, Home string
	ExtraEnv                              map[string]string
}

func TestMain(m *testing.M) {
	if raw := os.Getenv(helperEnv); raw != "" {
		helperStartRun(raw)
		return
	}
	os.Exit(m.Run())
}

// helperStartRun is the child: it starts one run, prints its id and waits
// to be killed.
func helperStartRun(raw string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	var h helperConfig
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		fail(err)
	}
	db, err := store.Open(context.Background(), h.DB)
	if err != nil {
		fail(err)
	}
	svc, err := New(db, Config{StateDir: h.StateDir, Agents: claudeAgents(h.ClaudeBin), TmuxSocket: h.TmuxSocket, Home: h.Home, ExtraEnv: h.ExtraEnv, SeedTrust: true})
	if err != nil {
		fail(err)
	}
	if _, err := svc.Adopt(context.Background()); err != nil {
		fail(err)
	}
	run, err := svc.Start(context.Background(), conv.StartRequest{Cwd: h.Cwd, Prompt: h.Prompt, PermissionMode: h.Mode})
	if err != nil {
		fail(err)
	}
	fmt.Printf("RUN %s\n", run.ID)
	time.Sleep(time.Hour) // until killed
}

func TestRestartKeepsAPendingRun(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			f, api := realFixture(t)
			f.db.Close() // the child is lab now
			f.db = nil
			cfg := f.cfg
			raw, err := json.Marshal(helperConfig{
				DB: f.dbPath, Cwd: f.work, Prompt: "lab:plan please", Mode: "plan",
				StateDir: cfg.StateDir, ClaudeBin: cfg.Agents[0].Bin, TmuxSocket: cfg.TmuxSocket, Home: cfg.Home, ExtraEnv: cfg.ExtraEnv,
			})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), helperEnv+"="+string(raw))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			id := readRunID(t, out)

			// Wait, from outside, until the plan approval is pending.
			spoolDir := filepath.Join(cfg.StateDir, "runs", id, "spool")
			sp := claude.OpenSpool(spoolDir)
			claudetest.Poll(t, 90*time.Second, "the plan pending in the spool", func() bool {
				st, _ := sp.Refresh()
				return len(st.Pending) == 1
			})
			before, _ := sp.Refresh()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()

			f.restart()
			rep, err := f.svc.Adopt(context.Background())
			if err != nil || len(rep.Adopted) != 1 || rep.Adopted[0] != id {
				t.Fatalf("Adopt got %+v, %v; want run %s adopted", rep, err, id)
			}
			run, err := f.svc.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if run.State != conv.StateQuestion || !run.Pending || run.SessionID != before.SessionID || run.TranscriptPath != before.TranscriptPath {
				t.Fatalf("after restart got %+v; want the same session still pending", run)
			}
			sd2, _ := f.svc.Side(context.Background(), id)
			st, _ := sd2.(*claude.Spool).Refresh()
			if len(st.Pending) != 1 || st.Pending[0].ToolUseID != before.Pending[0].ToolUseID || st.Pending[0].ToolName != "ExitPlanMode" {
				t.Fatalf("got pending %+v; want the same ExitPlanMode", st.Pending)
			}
			rec, _ := f.svc.Record(context.Background(), id)
			if !f.hasSession(rec.TmuxSession) {
				t.Fatal("the run's tmux session died with lab")
			}
			// The CLI kept talking to the model only as the script says: the
			// prompt went out once.
			n := 0
			for _, r := range api.Requests() {
				if r.Kind == "messages" && r.Scenario == "plan" && len(r.ToolResults) == 0 {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("got the prompt %d times at the model; want once", n)
			}
			if _, err := f.svc.Stop(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func readRunID(t *testing.T, out interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	ids := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if id, ok := strings.CutPrefix(sc.Text(), "RUN "); ok {
				ids <- id
				break
			}
		}
		// Drain so the child never blocks on a full pipe.
		for sc.Scan() {
		}
	}()
	select {
	case id := <-ids:
		return id
	case <-time.After(60 * time.Second):
		t.Fatal("the helper never started its run")
		return ""
	}
}

// registryEntry finds the CLI's registry entry for the run's pane process.
func registryEntry(ctx context.Context, svc *Service, rec store.RunRecord) (claude.RegistryEntry, bool) {
	pid, err := svc.Tmux().PanePID(ctx, paneTarget(rec.TmuxSession))
	if err != nil {
		return claude.RegistryEntry{}, false
	}
	e, ok, err := claude.ReadRegistryEntry(svc.Config().cliHome(), pid)
	if err != nil || !ok || !e.Alive() {
		return claude.RegistryEntry{}, false
	}
	return e, true
}
