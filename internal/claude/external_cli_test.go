package claude_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/clikit"
	"lab/internal/fakeclaudeapi"
	"lab/internal/tmux"
)

// startOutsideTmux runs the real CLI on a pseudo-terminal made by
// script(1), as an operator's plain terminal would, killed at cleanup.
func startOutsideTmux(t *testing.T, r *claudetest.Rig, prompt string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("script", "-qfec", r.Bin+" -- '"+prompt+"'", "/dev/null")
	cmd.Dir = r.Work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}
	for k, v := range r.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// A CLI the operator started in their own tmux (a shell in the pane, the
// CLI its child) is found through its TMUX variable and verified by the
// pane's process; one started outside tmux has no pane.
func TestLocatePaneOfExternalSessions(t *testing.T) {
	r := claudetest.NewRig(t, fakeclaudeapi.Options{})
	ctx := context.Background()
	if err := r.Tmux.NewSession(ctx, tmux.SessionOptions{Name: "ops", Dir: r.Work, Width: 120, Height: 45, Env: r.Env,
		Argv: []string{"/bin/sh", "-c", r.Bin + " -- 'lab:single in tmux'; exec sleep 600"}}); err != nil {
		t.Fatal(err)
	}
	startOutsideTmux(t, r, "lab:text outside tmux")

	var inTmux, outside claude.RegistryEntry
	claudetest.Poll(t, 60*time.Second, "both CLIs in the registry", func() bool {
		ents, _ := claude.ReadRegistry(r.Home)
		inTmux, outside = claude.RegistryEntry{}, claude.RegistryEntry{}
		for _, e := range ents {
			if e.Tmux != "" {
				inTmux = e
			} else {
				outside = e
			}
		}
		return inTmux.PID != 0 && outside.PID != 0
	})
	if !strings.HasPrefix(inTmux.Tmux, "ops:@") {
		t.Fatalf("registry tmux field %q; want the session:@window.%%pane of the ops session", inTmux.Tmux)
	}
	loc, err := claude.LocatePane(inTmux)
	if err != nil || loc.Socket != r.Tmux.Socket() || loc.Session != "ops" || !strings.HasPrefix(loc.Pane, "%") {
		t.Fatalf("LocatePane = %+v, %v; want socket %s, session ops, a pane id", loc, err, r.Tmux.Socket())
	}
	ops := tmux.New(loc.Socket)
	if err := ops.PaneHosts(ctx, loc.Pane, inTmux.PID); err != nil {
		t.Fatalf("PaneHosts of the CLI under the pane's shell: %v", err)
	}
	if err := ops.PaneHosts(ctx, loc.Pane, outside.PID); err == nil {
		t.Fatal("PaneHosts accepted a process that does not run in the pane")
	}
	if err := ops.PaneHosts(ctx, "%99", inTmux.PID); err == nil {
		t.Fatal("PaneHosts accepted a pane that does not exist")
	}
	if _, err := claude.LocatePane(outside); !errors.Is(err, clikit.ErrNotInTmux) {
		t.Fatalf("LocatePane of the CLI outside tmux: got %v; want ErrNotInTmux", err)
	}
}
