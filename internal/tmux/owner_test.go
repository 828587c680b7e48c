package tmux

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidPaneIDAndDescent(t *testing.T) {
	for p, want := range map[string]bool{"%0": true, "%12": true, "%": false, "0": false, "%1;kill": false, "=lab-x:": false} {
		if ValidPaneID(p) != want {
			t.Errorf("ValidPaneID(%q) = %v; want %v", p, !want, want)
		}
	}
	if !DescendsFrom(os.Getpid(), os.Getppid()) || !DescendsFrom(os.Getpid(), os.Getpid()) || !DescendsFrom(os.Getpid(), 1) {
		t.Fatal("the test process does not descend from its parent, itself and init")
	}
	if DescendsFrom(os.Getppid(), os.Getpid()) {
		t.Fatal("a parent descends from its child")
	}
}

// A pane that hosts a shell's child passes, another pid does not: the
// check lab makes before typing into a pane it did not create.
func TestPaneHosts(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	if err := s.NewSession(ctx, SessionOptions{Name: "ops", Argv: []string{"/bin/sh", "-c", "sleep 600 & echo child=$!; wait"}}); err != nil {
		t.Fatal(err)
	}
	out := waitPane(t, s, "=ops:", "child=")
	var child int
	fmt.Sscanf(out[strings.Index(out, "child=")+6:], "%d", &child)
	pane, _ := s.PaneID(ctx, "ops")
	if err := s.PaneHosts(ctx, pane, child); err != nil {
		t.Fatalf("PaneHosts of the shell's child: %v", err)
	}
	if err := s.PaneHosts(ctx, pane, os.Getpid()); err == nil {
		t.Fatal("PaneHosts accepted a process outside the pane")
	}
	if err := s.PaneHosts(ctx, "=ops:", child); err == nil {
		t.Fatal("PaneHosts accepted a target that is not a pane id")
	}
}

// BenchmarkPaneHosts is the check's cost before each key lab sends into an
// attached session's pane.
func BenchmarkPaneHosts(b *testing.B) {
	dir, _ := os.MkdirTemp("", "labtmux")
	defer os.RemoveAll(dir)
	s := New(filepath.Join(dir, "sock"))
	ctx := context.Background()
	defer s.KillServer(ctx)
	if err := s.NewSession(ctx, SessionOptions{Name: "ops", Argv: []string{"sleep", "600"}}); err != nil {
		b.Fatal(err)
	}
	pane, _ := s.PaneID(ctx, "ops")
	pid, _ := s.PanePID(ctx, pane)
	for b.Loop() {
		if err := s.PaneHosts(ctx, pane, pid); err != nil {
			b.Fatal(err)
		}
	}
}
