package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/tmux"
)

// assistantSaid reports whether the page holds an assistant text containing s.
func assistantSaid(p conv.Page, s string) bool {
	for _, m := range p.Messages {
		if m.Kind == conv.KindText && m.Role == conv.RoleAssistant && strings.Contains(m.Text, s) {
			return true
		}
	}
	return false
}

// TestDemoModelAddressSurvivesRestart restarts the demo while a run lives
// on: the adopted run keeps the model URL it was started with, so the
// restarted demo must serve the model at the same address for a reply to
// be answered at all.
func TestDemoModelAddressSurvivesRestart(t *testing.T) {
	state := claudetest.ShortTempDir(t, "labsrv")
	home := t.TempDir()
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	first := startLabAt(t, state, home)
	var run conv.Run
	if code := first.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text before the restart"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, first.log)
	}
	first.waitPage(run.ID, "the first reply", func(p conv.Page) bool {
		return assistantSaid(p, "You said: lab:text before the restart") && p.State == conv.StateNeedsInput
	})
	saved, err := os.ReadFile(filepath.Join(state, demoModelAddrFile))
	if err != nil || !validLoopbackAddr(strings.TrimSpace(string(saved))) {
		t.Fatalf("saved model address %q, %v; want a loopback address", saved, err)
	}
	first.stop()

	second := startLabAt(t, state, home)
	defer second.stop()
	again, _ := os.ReadFile(filepath.Join(state, demoModelAddrFile))
	if string(again) != string(saved) {
		t.Fatalf("model address after restart %q; want the saved %q", again, saved)
	}
	if code := second.call("POST", "/api/v1/runs/"+run.ID+"/reply", map[string]string{"text": "after the restart"}, nil); code != 204 {
		t.Fatalf("reply: %d\n%s", code, second.log)
	}
	second.waitPage(run.ID, "the adopted run's reply from the model", func(p conv.Page) bool {
		return assistantSaid(p, "You said: after the restart")
	})
	if strings.Contains(second.log.String(), "cannot reach the model") {
		t.Fatalf("the restart warned about a moved model:\n%s", second.log)
	}
}

// TestDemoModelFallsBackWhenPortTaken: a saved port that something else
// holds moves the model, and the log says adopted runs lose it.
func TestDemoModelFallsBackWhenPortTaken(t *testing.T) {
	state := claudetest.ShortTempDir(t, "labsrv")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	squatter, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer squatter.Close()
	taken := squatter.Addr().String()
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, demoModelAddrFile), []byte(taken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lab := startLabAt(t, state, t.TempDir())
	defer lab.stop()
	if log := lab.log.String(); !strings.Contains(log, "saved address is taken") || !strings.Contains(log, "cannot reach the model") || !strings.Contains(log, taken) {
		t.Fatalf("log lacks the fallback warning naming %s:\n%s", taken, log)
	}
	now, _ := os.ReadFile(filepath.Join(state, demoModelAddrFile))
	if got := strings.TrimSpace(string(now)); got == taken || !validLoopbackAddr(got) {
		t.Fatalf("saved address after the fallback %q; want a new loopback address", got)
	}
}

func TestValidLoopbackAddr(t *testing.T) {
	for in, want := range map[string]bool{
		"127.0.0.1:4000": true, "[::1]:4000": true,
		"0.0.0.0:4000": false, "10.0.0.2:4000": false, "127.0.0.1:0": false, "127.0.0.1": false, "": false, "localhost:4000": false,
	} {
		if got := validLoopbackAddr(in); got != want {
			t.Errorf("validLoopbackAddr(%q) = %v; want %v", in, got, want)
		}
	}
}
