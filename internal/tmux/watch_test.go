package tmux

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nextFrame waits for the watcher's next frame.
func nextFrame(t *testing.T, w *Watcher) Frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f, err := w.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return f
}

// watchSession starts a session running argv and watches its pane.
func watchSession(t *testing.T, s *Server, name string, argv ...string) (*Watcher, string) {
	t.Helper()
	ctx := context.Background()
	if err := s.NewSession(ctx, SessionOptions{Name: name, Width: 80, Height: 20, Argv: argv}); err != nil {
		t.Fatal(err)
	}
	pane, err := s.PaneID(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Watch(ctx, pane)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w, pane
}

// The first frame redraws the screen with its colours and the cursor;
// then come the bytes the program writes, from exactly where the screen
// left off: a counter printed every few milliseconds continues in the
// output at the number after the screen's last, never repeating or
// skipping one.
func TestWatchStartsExactlyAtTheScreen(t *testing.T) {
	s := newServer(t)
	w, _ := watchSession(t, s, "count", "/bin/sh", "-c",
		`printf '\033[31mred\033[0m\n'; i=0; while :; do i=$((i+1)); printf 'n%d\n' $i; sleep 0.005; done`)
	f := nextFrame(t, w)
	if f.Screen == nil || f.Screen.Cols != 80 || f.Screen.Rows != 20 {
		t.Fatalf("first frame %+v; want a screen of 80x20", f.Screen)
	}
	nums := regexp.MustCompile(`n(\d+)\r?\n`)
	last := 0
	for _, m := range nums.FindAllSubmatch(f.Screen.Data, -1) {
		last, _ = strconv.Atoi(string(m[1]))
	}
	// The first frame may carry output after its screen already (a reader
	// that came late): it counts from there.
	out := bytes.Clone(f.Output)
	for len(nums.FindAll(out, -1)) < 50 {
		g := nextFrame(t, w)
		if g.Screen != nil {
			t.Fatalf("a second screen arrived with nothing resized")
		}
		out = append(out, g.Output...)
	}
	if last == 0 {
		// The counter had not started: the red line, with its colour,
		// is on the screen or comes first in the output.
		if drawn := append(bytes.Clone(f.Screen.Data), out...); !bytes.Contains(drawn, []byte("\x1b[31mred")) {
			t.Fatalf("screen %q then %q; want the red line with its colour", f.Screen.Data, out)
		}
	}
	first, _ := strconv.Atoi(string(nums.FindSubmatch(out)[1]))
	if first != last+1 {
		t.Fatalf("the screen ended at n%d and the output starts at n%d; want n%d", last, first, last+1)
	}
	want := first
	for _, m := range nums.FindAllSubmatch(out, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n != want {
			t.Fatalf("output counts n%d where n%d was due", n, want)
		}
		want++
	}
}

// A watch types nothing into the pane, leaves the window the size the
// program has, and a resize of the window brings a new screen of the new
// size; when the pane's program exits the watch ends with ErrPaneGone.
func TestWatchIsReadOnlyAndFollowsResizes(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	w, pane := watchSession(t, s, "cat", "/bin/sh", "-c", `printf 'ready\n'; exec cat`)
	f := nextFrame(t, w)
	if f.Screen == nil {
		t.Fatalf("first frame %+v; want a screen", f)
	}
	// The program may print after the screen was taken: then "ready"
	// follows as output.
	for drawn := append(bytes.Clone(f.Screen.Data), f.Output...); !bytes.Contains(drawn, []byte("ready")); {
		g := nextFrame(t, w)
		if g.Screen != nil {
			t.Fatalf("a second screen arrived with nothing resized")
		}
		drawn = append(drawn, g.Output...)
	}
	size := func() string {
		out, err := s.cmd(ctx, nil, "display-message", "-p", "-t", pane, "#{window_width}x#{window_height}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	if got := size(); got != "80x20" {
		t.Fatalf("window is %s with a watcher attached; want 80x20", got)
	}
	// Typed keys show as the tty echoes them.
	if _, err := s.cmd(ctx, nil, "send-keys", "-t", pane, "-l", "hello"); err != nil {
		t.Fatal(err)
	}
	var out []byte
	for !bytes.Contains(out, []byte("hello")) {
		out = append(out, nextFrame(t, w).Output...)
	}
	if _, err := s.cmd(ctx, nil, "resize-window", "-t", pane, "-x", "100", "-y", "30"); err != nil {
		t.Fatal(err)
	}
	for {
		f := nextFrame(t, w)
		if f.Screen != nil {
			if f.Screen.Cols != 100 || f.Screen.Rows != 30 || !bytes.Contains(f.Screen.Data, []byte("hello")) {
				t.Fatalf("screen after the resize %dx%d %q; want 100x30 with the typed text", f.Screen.Cols, f.Screen.Rows, f.Screen.Data)
			}
			break
		}
	}
	if _, err := s.cmd(ctx, nil, "send-keys", "-t", pane, "Enter", "C-d"); err != nil {
		t.Fatal(err)
	}
	nctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		_, err := w.Next(nctx)
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrPaneGone) {
			t.Fatalf("Next after the program exited: %v; want ErrPaneGone", err)
		}
		break
	}
}

// Closing a watch detaches its client: the server lists no client.
func TestWatchCloseDetaches(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	w, _ := watchSession(t, s, "idle", "/bin/sh", "-c", `exec sleep 600`)
	nextFrame(t, w)
	clients := func() string {
		out, err := s.cmd(ctx, nil, "list-clients", "-F", "#{client_control_mode} #{client_readonly}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	if got := clients(); got != "1 1" {
		t.Fatalf("clients while watching: %q; want one read-only control client", got)
	}
	w.Close()
	if got := clients(); got != "" {
		t.Fatalf("clients after Close: %q; want none", got)
	}
	if w.cmd.ProcessState == nil {
		t.Fatal("the control client process was not waited for")
	}
}

func TestUnescapeOutput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`plain`, "plain"},
		{`\033[31mred\015\012`, "\x1b[31mred\r\n"},
		{`back\134slash`, `back\slash`},
		{`trailing\03`, `trailing\03`},
		{"é\\011", "é\t"},
	} {
		if got := string(unescapeOutput([]byte(c.in))); got != c.want {
			t.Errorf("unescapeOutput(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
