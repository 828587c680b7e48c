package runs

import (
	"context"
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

// Starting a run right after stopping another races the stopped CLI's
// last rewrite of ~/.claude.json against lab's trust entry for the new
// folder; a lost entry leaves the new CLI at the folder-trust screen. Stop
// now waits for the CLI to exit and a starting run's trust screen is
// answered, so every run reaches its prompt. Each run gets a folder never
// trusted before, so each one needs its own entry.
func TestBackToBackRunsReachTheirPrompt(t *testing.T) {
	f, _ := realFixture(t)
	ctx := context.Background()
	drv := claude.New().NewDriver("")
	const runs = 20
	gated := 0
	for i := range runs {
		dir := filepath.Join(f.work, "back", string(rune('a'+i)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		run, err := f.svc.Start(ctx, conv.StartRequest{Cwd: dir})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		target, _ := f.svc.Target(ctx, run.ID)
		sawTrust := false
		claudetest.Poll(t, 60*time.Second, "run "+run.ID+" at its prompt", func() bool {
			pane, err := f.svc.Tmux().Capture(ctx, target)
			if err != nil {
				return false
			}
			if strings.Contains(pane, "Yes, I trust this folder") {
				sawTrust = true
			}
			_, ok := drv.Prompt(pane)
			return ok
		})
		if sawTrust {
			gated++
		}
		if _, err := f.svc.Stop(ctx, run.ID); err != nil {
			t.Fatalf("stop run %d: %v", i, err)
		}
	}
	t.Logf("%d runs reached their prompt; %d passed a folder-trust screen on the way", runs, gated)
}

// When the trust entry was lost anyway, the start watch answers the
// folder-trust screen of the run's own folder, and the CLI reaches its
// prompt.
func TestStartWatchAnswersTheTrustScreen(t *testing.T) {
	f, _ := realFixture(t)
	ctx := context.Background()
	dir := filepath.Join(f.work, "untrusted")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := store.RunRecord{ID: "gate", Cwd: dir, TmuxSession: "lab-gate"}
	err := f.svc.Tmux().NewSession(ctx, tmux.SessionOptions{
		Name: rec.TmuxSession, Dir: dir, Width: 120, Height: 45, Env: f.cfg.ExtraEnv, Argv: []string{claudetest.CLI(t)},
	})
	if err != nil {
		t.Fatal(err)
	}
	drv := claude.New().NewDriver("")
	target := paneTarget(rec.TmuxSession)
	claudetest.Poll(t, 60*time.Second, "the folder-trust screen", func() bool {
		pane, _ := f.svc.Tmux().Capture(ctx, target)
		_, gate := drv.Gate(pane, dir)
		return gate
	})
	f.svc.watchStart(rec, drv)
	pane, _ := f.svc.Tmux().Capture(ctx, target)
	if _, ok := drv.Prompt(pane); !ok {
		t.Fatalf("after the start watch the CLI is not at its prompt:\n%s", pane)
	}
}
