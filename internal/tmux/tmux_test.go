package tmux

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newServer(t *testing.T) *Server {
	t.Helper()
	// Unix socket paths are short; t.TempDir can be long.
	dir, err := os.MkdirTemp("", "labtmux")
	if err != nil {
		t.Fatal(err)
	}
	s := New(filepath.Join(dir, "sock"))
	t.Cleanup(func() {
		s.KillServer(context.Background())
		os.RemoveAll(dir)
	})
	return s
}

// waitPane polls the pane until it contains want.
func waitPane(t *testing.T, s *Server, target, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		out, err := s.Capture(context.Background(), target)
		if err == nil && strings.Contains(out, want) {
			return out
		}
		last = out
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("pane never showed %q; last:\n%s", want, last)
	return ""
}

func TestSessionLifecycle(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	if names, err := s.ListSessions(ctx); err != nil || len(names) != 0 {
		t.Fatalf("got %v, %v before any session; want none, nil", names, err)
	}
	dir := t.TempDir()
	err := s.NewSession(ctx, SessionOptions{
		Name: "run-1", Dir: dir, Width: 80, Height: 20,
		Env:  map[string]string{"LAB_PROBE": "hello world"},
		Argv: []string{"/bin/sh", "-c", `echo "probe=$LAB_PROBE pwd=$(pwd)"; exec cat`},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := waitPane(t, s, "run-1", "probe=hello world pwd="+dir)
	_ = out
	ok, err := s.HasSession(ctx, "run-1")
	if err != nil || !ok {
		t.Fatalf("HasSession(run-1) = %v, %v; want true", ok, err)
	}
	// A prefix must not match another session.
	if ok, _ := s.HasSession(ctx, "run"); ok {
		t.Fatal("HasSession(run) = true; want false (prefix)")
	}
	if pid, err := s.PanePID(ctx, "run-1"); err != nil || pid <= 0 {
		t.Fatalf("PanePID = %d, %v", pid, err)
	}
	if id, err := s.PaneID(ctx, "run-1"); err != nil || !strings.HasPrefix(id, "%") {
		t.Fatalf("PaneID(run-1) = %q, %v; want %%N", id, err)
	}
	if id, err := s.PaneID(ctx, "run"); err == nil {
		t.Fatalf("PaneID(run) = %q; want an error (no such session, prefixes do not count)", id)
	}
	if err := s.KillSession(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.HasSession(ctx, "run-1"); ok {
		t.Fatal("session still there after KillSession")
	}
	if err := s.KillSession(ctx, "run-1"); err != nil {
		t.Fatalf("killing a missing session: %v; want nil", err)
	}
}

func TestSendKeyAndPaste(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	// cat -v shows control bytes, so the bracketed-paste markers and keys
	// are visible on the pane exactly as the application receives them.
	err := s.NewSession(ctx, SessionOptions{Name: "keys", Width: 100, Height: 20,
		Argv: []string{"/bin/sh", "-c", `printf '\033[?2004h'; stty raw -echo; echo READY; exec cat -v`}})
	if err != nil {
		t.Fatal(err)
	}
	waitPane(t, s, "keys", "READY")
	if err := s.Paste(ctx, "keys", "two\nlines $HOME ;"); err != nil {
		t.Fatal(err)
	}
	if err := s.SendKey(ctx, "keys", "Enter"); err != nil {
		t.Fatal(err)
	}
	out := waitPane(t, s, "keys", "^[[201~")
	if !strings.Contains(out, "^[[200~two") || !strings.Contains(out, "lines $HOME ;^[[201~") {
		t.Fatalf("paste not bracketed or not verbatim:\n%s", out)
	}
	for _, bad := range []string{"Enter Enter", "hello", "", "-l", "C-c;kill-server"} {
		if err := s.SendKey(ctx, "keys", bad); err == nil {
			t.Errorf("SendKey(%q) = nil; want refused", bad)
		}
	}
}

// Typed text arrives as plain keystrokes, without paste brackets, and a
// trailing ";" stays text; control characters are refused before tmux
// is asked.
func TestType(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	err := s.NewSession(ctx, SessionOptions{Name: "typed", Width: 100, Height: 20,
		Argv: []string{"/bin/sh", "-c", `printf '\033[?2004h'; stty raw -echo; echo READY; exec cat -v`}})
	if err != nil {
		t.Fatal(err)
	}
	waitPane(t, s, "typed", "READY")
	if err := s.Type(ctx, "typed", "/help é $HOME ;"); err != nil {
		t.Fatal(err)
	}
	out := waitPane(t, s, "typed", "HOME ;")
	if !strings.Contains(out, "/help M-CM-) $HOME ;") || strings.Contains(out, "^[[200~") {
		t.Fatalf("typed text not verbatim or bracketed:\n%s", out)
	}
	for _, bad := range []string{"", "a\nb", "\x1b[A", "tab\there", "del\x7f", "c1\u0085", "\xff"} {
		if err := s.Type(ctx, "typed", bad); err == nil {
			t.Errorf("Type(%q) = nil; want refused", bad)
		}
	}
}

// TestSendKeys: several keys in one call arrive in order, as the bytes
// each named key stands for; one key that is not allowed refuses the
// whole call before anything is typed.
func TestSendKeys(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	err := s.NewSession(ctx, SessionOptions{Name: "keys", Width: 100, Height: 20,
		Argv: []string{"/bin/sh", "-c", `stty raw -echo; echo READY; exec cat -vT`}})
	if err != nil {
		t.Fatal(err)
	}
	waitPane(t, s, "keys", "READY")
	for _, bad := range [][]string{nil, {"Down", "hello"}, {"Up", "-l"}, {"Space", "C-c;kill-server"}} {
		if err := s.SendKeys(ctx, "keys", bad...); err == nil {
			t.Errorf("SendKeys(%q) = nil; want refused", bad)
		}
	}
	if err := s.SendKeys(ctx, "keys", "Down", "Down", "Space", "Tab", "Up"); err != nil {
		t.Fatal(err)
	}
	if err := s.SendKey(ctx, "keys", "BSpace"); err != nil {
		t.Fatal(err)
	}
	// cat -vT: Down is ESC [ B, Tab ^I, BSpace DEL (^?). The
	// refused calls typed nothing before the good one.
	out := waitPane(t, s, "keys", "^?")
	if got, want := strings.TrimSpace(strings.SplitN(out, "READY\n", 2)[1]), "^[[B^[[B ^I^[[A^?"; got != want {
		t.Fatalf("pane shows %q; want %q", got, want)
	}
}

func TestInvalidSessionOptions(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	for _, o := range []SessionOptions{
		{Name: "bad name", Argv: []string{"true"}},
		{Name: "", Argv: []string{"true"}},
		{Name: "x:y", Argv: []string{"true"}},
		{Name: "ok"},
	} {
		if err := s.NewSession(ctx, o); err == nil {
			t.Errorf("NewSession(%+v) = nil; want error", o)
		}
	}
}
