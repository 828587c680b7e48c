package clitest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/tmux"
)

func TestBin(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "cli")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x"), 0o644)
	t.Setenv("LAB_TEST_BIN", exe)
	if p, ok, err := Bin("LAB_TEST_BIN", "tools/none"); p != exe || !ok || err != nil {
		t.Errorf("Bin = %q, %v, %v; want the env's executable", p, ok, err)
	}
	t.Setenv("LAB_TEST_BIN", plain)
	if p, ok, err := Bin("LAB_TEST_BIN", "tools/none"); p != plain || ok || err != nil {
		t.Errorf("Bin = %q, %v, %v; want a non-executable reported", p, ok, err)
	}
	t.Setenv("LAB_TEST_BIN", "")
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("ModuleRoot %s holds no go.mod", root)
	}
	if p, ok, err := Bin("LAB_TEST_BIN", "tools/none"); p != filepath.Join(root, "tools/none") || ok || err != nil {
		t.Errorf("Bin = %q, %v, %v; want the path under the module root, not installed", p, ok, err)
	}
}

func TestShortTempDirAndWriteText(t *testing.T) {
	dir := ShortTempDir(t, "labx")
	if len(dir) > 40 {
		t.Errorf("temp dir %q is long", dir)
	}
	p := filepath.Join(dir, "f")
	WriteText(t, p, "no newline")
	if b, _ := os.ReadFile(p); string(b) != "no newline\n" {
		t.Errorf("wrote %q", b)
	}
	if !Has("a", "c")("abc") || Has("a", "d")("abc") {
		t.Error("Has")
	}
}

// A Term types into a real pane and reads what it shows.
func TestTerm(t *testing.T) {
	s := Tmux(t)
	term := NewTerm(t, s, 20*time.Millisecond)
	err := s.NewSession(context.Background(), tmux.SessionOptions{
		Name: "t", Dir: t.TempDir(), Width: 80, Height: 10,
		Argv: []string{"/bin/sh", "-c", `printf 'ready\n'; read a; read b; printf 'got:%s,%s\n' "$a" "$b"; sleep 60`},
	})
	if err != nil {
		t.Fatal(err)
	}
	term.WaitPaneSettled("t", "ready", 100*time.Millisecond, 10*time.Second)
	term.Paste("t", "hi")
	term.Keys("t", "Enter")
	term.Paste("t", "pasted")
	term.Keys("t", "Space", "BSpace", "Enter")
	pane := term.WaitPane("t", "got:hi,pasted", 10*time.Second)
	if !strings.Contains(term.Pane("t"), "got:hi,pasted") || !strings.Contains(pane, "ready") {
		t.Errorf("pane:\n%s", pane)
	}
	Poll(t, 10*time.Second, "the pane to keep its text", func() bool { return strings.Contains(term.Pane("t"), "got:") })
}
