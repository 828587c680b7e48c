package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/tmux"
)

// tmuxTerminals serves the terminal of run "r1", a real pane on a private
// tmux server running cat under a shell that printed a green word; "gone"
// has ended.
type tmuxTerminals struct {
	srv  *tmux.Server
	pane string

	mu     sync.Mutex
	inputs []conv.TerminalInput
}

func newTmuxTerminals(t *testing.T) *tmuxTerminals {
	t.Helper()
	dir, err := os.MkdirTemp("", "labterm")
	if err != nil {
		t.Fatal(err)
	}
	srv := tmux.New(filepath.Join(dir, "sock"))
	t.Cleanup(func() {
		srv.KillServer(context.Background())
		os.RemoveAll(dir)
	})
	ctx := context.Background()
	if err := srv.NewSession(ctx, tmux.SessionOptions{Name: "r1", Width: 80, Height: 20,
		Argv: []string{"/bin/sh", "-c", `printf '\033[32mgreen\033[0m ready\n'; exec cat`}}); err != nil {
		t.Fatal(err)
	}
	pane, err := srv.PaneID(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "the pane to show ready", func() bool {
		c, _ := srv.Capture(ctx, pane)
		return strings.Contains(c, "ready")
	})
	return &tmuxTerminals{srv: srv, pane: pane}
}

func (f *tmuxTerminals) WatchTerminal(ctx context.Context, id string) (*tmux.Watcher, error) {
	switch id {
	case "r1":
		return f.srv.Watch(ctx, f.pane)
	case "gone":
		return nil, conv.Errorf(conv.EConflict, "run gone has ended")
	}
	return nil, conv.Errorf(conv.ENotFound, "no run %s", id)
}

func (f *tmuxTerminals) TerminalInput(ctx context.Context, id string, in conv.TerminalInput) error {
	if id != "r1" {
		return conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	f.mu.Lock()
	f.inputs = append(f.inputs, in)
	f.mu.Unlock()
	return f.srv.Type(ctx, f.pane, in.Text)
}

func (f *tmuxTerminals) clients(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("tmux", "-S", f.srv.Socket(), "list-clients", "-F", "#{client_control_mode}").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// openTerminal opens a run's terminal stream with a bearer token.
func (h *harness) openTerminal(ctx context.Context, id, bearer string) (*http.Response, <-chan sseFrame) {
	h.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", h.ts.URL+"/api/v1/runs/"+id+"/terminal", nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { res.Body.Close() })
	return res, readFrames(bufioReader(res))
}

// The stream starts with the pane's screen, colours included, then
// carries what the pane draws as base64 output; typed input is logged
// with the run and the operator, and the watch goes when the client
// does.
func TestTerminalStream(t *testing.T) {
	term := newTmuxTerminals(t)
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Terminals = term }})
	bearer := h.token("phone")
	ctx, cancel := context.WithCancel(context.Background())
	res, frames := h.openTerminal(ctx, "r1", bearer)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET terminal: %d %s; want an event stream", res.StatusCode, res.Header.Get("Content-Type"))
	}
	f, _ := next(t, frames)
	var sc TerminalScreen
	if f.event != "screen" || json.Unmarshal([]byte(f.data), &sc) != nil {
		t.Fatalf("first frame %+v; want a screen", f)
	}
	if sc.Cols != 80 || sc.Rows != 20 || !strings.Contains(string(sc.Data), "\x1b[32mgreen") {
		t.Fatalf("screen %dx%d %q; want 80x20 with the green word's colour", sc.Cols, sc.Rows, sc.Data)
	}
	if got := term.clients(t); got != "1" {
		t.Fatalf("tmux clients while streaming: %q; want one control client", got)
	}

	r := h.do(rq{method: "POST", path: "/api/v1/runs/r1/terminal/input", bearer: bearer, body: `{"text":"typed on a phone"}`})
	if r.status != http.StatusNoContent {
		t.Fatalf("input: %d %s; want 204", r.status, r.body)
	}
	var out []byte
	for !strings.Contains(string(out), "typed on a phone") {
		f, ok := next(t, frames)
		if !ok {
			t.Fatal("the stream ended")
		}
		if f.event != "output" {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(f.data)
		if err != nil {
			t.Fatalf("output %q is not base64: %v", f.data, err)
		}
		out = append(out, b...)
	}
	if logs := h.logs.String(); !strings.Contains(logs, `msg="terminal input" run=r1 operator="token phone" keys=[] text_bytes=16`) {
		t.Fatalf("log lacks the input with its run and operator:\n%s", logs)
	}

	cancel()
	poll(t, "the control client to detach", func() bool { return term.clients(t) == "" })
}

// A token revoked while its terminal stream is open ends the stream at
// the next heartbeat, as the events stream does: the pane is not shown
// to a device that lost its access.
func TestTerminalStreamEndsWhenItsTokenIsRevoked(t *testing.T) {
	term := newTmuxTerminals(t)
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.Terminals = term
		c.Heartbeat = 20 * time.Millisecond
	}})
	_, frames := h.openTerminal(context.Background(), "r1", h.token("phone"))
	if f, _ := next(t, frames); f.event != "screen" {
		t.Fatalf("first frame %+v; want the screen", f)
	}
	if _, err := h.db.RevokeAPIToken(context.Background(), "phone"); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); ; {
		if _, ok := next(t, frames); !ok {
			break // the stream ended
		}
		if time.Now().After(end) {
			t.Fatal("the terminal stream went on after its token was revoked")
		}
	}
	poll(t, "the control client to detach", func() bool { return term.clients(t) == "" })
}

// A run without a terminal answers the stream with a JSON error before
// any event; Drain ends an open stream.
func TestTerminalErrorsAndDrain(t *testing.T) {
	term := newTmuxTerminals(t)
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Terminals = term }})
	bearer := h.token("phone")
	for _, c := range []struct {
		id   string
		want int
	}{{"nope", 404}, {"gone", 409}} {
		r := h.do(rq{method: "GET", path: "/api/v1/runs/" + c.id + "/terminal", bearer: bearer})
		if r.status != c.want || !strings.Contains(r.errMsg(t), c.id) {
			t.Errorf("terminal of %s: %d %s; want %d with a message", c.id, r.status, r.body, c.want)
		}
	}
	if r := h.do(rq{method: "POST", path: "/api/v1/runs/r1/terminal/input", bearer: bearer, body: `{"text":1}`}); r.status != 400 {
		t.Errorf("malformed input: %d; want 400", r.status)
	}
	_, frames := h.openTerminal(context.Background(), "r1", bearer)
	if f, _ := next(t, frames); f.event != "screen" {
		t.Fatalf("first frame %+v; want a screen", f)
	}
	h.srv.Drain()
	for {
		f, ok := next(t, frames)
		if !ok {
			break
		}
		if f.event == "screen" {
			t.Fatalf("got %+v after Drain; want the stream to end", f)
		}
	}
	poll(t, "the control client to detach", func() bool { return term.clients(t) == "" })
}

// Without a terminal layer the endpoints say so.
func TestTerminalUnavailable(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("phone")
	if r := h.do(rq{method: "GET", path: "/api/v1/runs/r1/terminal", bearer: bearer}); r.status != 503 {
		t.Fatalf("terminal without a terminal layer: %d; want 503", r.status)
	}
}
