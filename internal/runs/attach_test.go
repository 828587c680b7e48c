package runs

import (
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

	"lab/internal/claudetest"
	"lab/internal/clitest"
	"lab/internal/conv"
	"lab/internal/tmux"
)

// procStart reads field 22 of /proc/<pid>/stat, as the CLI records it.
func procStart(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[19]
}

// operatorProcess starts a long-lived process in a pane of a tmux server
// that is not lab's, and writes the registry entry the CLI keeps for
// itself (same fields, same place), so the run layer sees what it would
// see of an interactive CLI the operator started there.
func operatorProcess(t *testing.T, home, cwd string) (ops *tmux.Server, pid int) {
	t.Helper()
	ops = claudetest.Tmux(t)
	ctx := context.Background()
	if err := ops.NewSession(ctx, tmux.SessionOptions{Name: "ops", Dir: cwd, Argv: []string{"sleep", "600"}}); err != nil {
		t.Fatal(err)
	}
	pid, err := ops.PanePID(ctx, "=ops:")
	if err != nil {
		t.Fatal(err)
	}
	// Until the pane's process has exec'd sleep, /proc shows it with the
	// tmux server's environment, which has no TMUX: under load a read in
	// that window saw "not in tmux". The operator's CLI is long past it.
	clitest.Poll(t, 10*time.Second, "the pane's process to be sleep", func() bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		return err == nil && strings.HasPrefix(string(b), "sleep\x00")
	})
	pane, _ := ops.PaneID(ctx, "ops")
	entry := map[string]any{"pid": pid, "sessionId": "5e55a0b1-0000-4000-8000-000000000001", "cwd": cwd, "version": "2.1.328",
		"kind": "interactive", "tmux": "ops:@0." + pane, "status": "idle", "procStart": procStart(t, pid),
		"startedAt": time.Now().UnixMilli(), "updatedAt": time.Now().UnixMilli()}
	b, _ := json.Marshal(entry)
	dir := filepath.Join(home, ".claude", "sessions")
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(pid)+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return ops, pid
}

// An attached run survives a restart of lab, detaching leaves its process
// alone, and it ends when its process does.
func TestAttachedRunLifecycle(t *testing.T) {
	f := newFixture(t, "")
	ctx := context.Background()
	_, pid := operatorProcess(t, f.cfg.Home, f.work)

	ext, err := f.svc.External(ctx)
	if err != nil || len(ext) != 1 || ext[0].PID != pid || ext[0].Tmux == nil || ext[0].ReadOnly != "" || ext[0].RunID != "" {
		t.Fatalf("External = %+v, %v; want the operator's process, reachable", ext, err)
	}
	if _, err := f.svc.Attach(ctx, "", pid+100000); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("attaching an unknown pid: got %v; want not found", err)
	}
	run, err := f.svc.Attach(ctx, "", pid)
	if err != nil {
		t.Fatal(err)
	}
	if run.Attached == nil || run.Attached.PID != pid || run.State == conv.StateEnded || run.Cwd != f.work {
		t.Fatalf("attached run %+v", run)
	}
	if _, err := f.svc.Attach(ctx, "", pid); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("attaching twice: got %v; want a conflict", err)
	}
	term, err := f.svc.Terminal(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.Capture(ctx); err != nil {
		t.Fatalf("capture of the verified pane: %v", err)
	}
	w, err := term.Watch(ctx)
	if err != nil {
		t.Fatalf("watching the verified pane: %v", err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	frame, err := w.Next(wctx)
	cancel()
	w.Close()
	if err != nil || frame.Screen == nil {
		t.Fatalf("first frame of the attached pane: %+v, %v; want its screen", frame, err)
	}

	// A restart adopts it; its process is nobody's to kill.
	f.restart()
	if _, err := f.svc.Adopt(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.svc.Get(ctx, run.ID); r.State == conv.StateEnded {
		t.Fatal("the attached run ended across a restart")
	}
	stopped, err := f.svc.Stop(ctx, run.ID)
	if err != nil || stopped.State != conv.StateEnded || stopped.EndReason != "detached" {
		t.Fatalf("Stop = %+v, %v; want detached", stopped, err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("detaching ended the operator's process: %v", err)
	}
	if _, err := f.svc.Terminal(ctx, run.ID); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("Terminal of a detached run: got %v; want a conflict", err)
	}

	// Attached again, it ends when its process exits.
	again, err := f.svc.Attach(ctx, "", pid)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	claudetest.Poll(t, 10*time.Second, "the sweep to notice the process is gone", func() bool {
		ended, _ := f.svc.Sweep(ctx)
		for _, id := range ended {
			if id == again.ID {
				return true
			}
		}
		return false
	})
	if r, _ := f.svc.Get(ctx, again.ID); r.EndReason != "exited" {
		t.Fatalf("got end reason %q; want exited", r.EndReason)
	}
}

// A pane that came to run another process since the attach (pane ids
// are reused) is neither watched nor typed into.
func TestAttachedPaneCheckedBeforeWatchAndType(t *testing.T) {
	f := newFixture(t, "")
	ctx := context.Background()
	ops, pid := operatorProcess(t, f.cfg.Home, f.work)
	run, err := f.svc.Attach(ctx, "", pid)
	if err != nil {
		t.Fatal(err)
	}
	term, err := f.svc.Terminal(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("tmux", "-S", ops.Socket(), "respawn-pane", "-k", "-t", "=ops:", "sleep", "600").CombinedOutput(); err != nil {
		t.Fatalf("respawn-pane: %v %s", err, out)
	}
	if _, err := term.Watch(ctx); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("watching a pane that no longer hosts the process: got %v; want a conflict", err)
	}
	if err := term.Type(ctx, "hello"); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("typing into a pane that no longer hosts the process: got %v; want a conflict", err)
	}
}
