package httpapi

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

// TestEveryErrorStatus produces each status the API answers from a real
// condition through the whole mux, and checks the one error shape.
func TestEveryErrorStatus(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.MaxBodyBytes = 1024
		c.LoginLimit = RateLimit{Burst: 1, Every: time.Hour}
	}})
	fixture(t, h)
	if err := os.Mkdir(filepath.Join(h.sessions.dir, "broken.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	bearer := h.token("errors")
	cookie, csrf := h.login() // spends the only login attempt
	if _, err := h.runs.Start(context.Background(), conv.StartRequest{Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r4/stop", bearer: bearer}); got.status != http.StatusNoContent {
		t.Fatalf("stopping r4: got %d", got.status)
	}
	cases := []struct {
		name    string
		r       rq
		status  int
		message string // a substring of the error message
	}{
		{"unknown field", rq{method: "POST", path: "/api/v1/runs/r1/reply", body: `{"text":"hi","extra":1}`, bearer: bearer},
			400, `unknown field "extra"`},
		{"bad query", rq{method: "GET", path: "/api/v1/runs/r1/messages?limit=0", bearer: bearer}, 400, "limit=0"},
		{"answer does not fit the dialog", rq{method: "POST", path: "/api/v1/runs/r2/answer", bearer: bearer,
			body: `{"tool_id":"toolu_1","answers":[{"chosen":[0]},{"chosen":[1]}]}`}, 400, "2 answers"},
		{"no credentials", rq{method: "GET", path: "/api/v1/runs"}, 401, "not logged in"},
		{"no CSRF token", rq{method: "POST", path: "/api/v1/runs/r1/interrupt", cookie: cookie}, 403, CSRFHeader},
		{"foreign origin", rq{method: "POST", path: "/api/v1/runs/r1/interrupt", cookie: cookie, csrf: csrf, origin: "https://evil.example"},
			403, "cross-origin"},
		{"unknown run", rq{method: "GET", path: "/api/v1/runs/nope/messages", bearer: bearer}, 404, `no run "nope"`},
		{"unknown session", rq{method: "GET", path: "/api/v1/sessions/nope/messages", bearer: bearer}, 404, `no session "nope"`},
		{"unknown endpoint", rq{method: "GET", path: "/api/v1/nope", bearer: bearer}, 404, "no API endpoint"},
		{"wrong method", rq{method: "DELETE", path: "/api/v1/runs", bearer: bearer}, 405, "DELETE"},
		{"stale dialog", rq{method: "POST", path: "/api/v1/runs/r2/answer", bearer: bearer,
			body: `{"tool_id":"toolu_old","answers":[{"chosen":[0]}]}`}, 409, "gone or changed"},
		{"ended run", rq{method: "POST", path: "/api/v1/runs/r4/reply", body: `{"text":"hi"}`, bearer: bearer}, 409, "ended"},
		{"body too large", rq{method: "POST", path: "/api/v1/runs/r1/reply", bearer: bearer,
			body: `{"text":"` + strings.Repeat("x", 2000) + `"}`}, 413, "larger than 1024 bytes"},
		{"login rate limit", rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"` + testPassword + `"}`},
			429, "too many login attempts"},
		{"unreadable transcript", rq{method: "GET", path: "/api/v1/sessions/broken/messages", bearer: bearer}, 500, "read transcript"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := h.do(tc.r)
			if got.status != tc.status {
				t.Fatalf("got %d %s; want %d", got.status, got.body, tc.status)
			}
			if msg := got.errMsg(t); !strings.Contains(msg, tc.message) {
				t.Fatalf("got message %q; want it to contain %q", msg, tc.message)
			}
		})
	}
	// The 500's detail is logged, not sent.
	if logs := h.logs.String(); !strings.Contains(logs, "level=ERROR") || !strings.Contains(logs, "is a directory") {
		t.Errorf("log lacks the internal error's detail:\n%s", logs)
	}
	if got := h.do(rq{method: "DELETE", path: "/api/v1/runs", bearer: bearer}); got.header.Get("Allow") != "GET, POST" {
		t.Errorf("405 Allow = %q; want \"GET, POST\"", got.header.Get("Allow"))
	}

	// 503 once draining: readiness and new event streams.
	h.srv.Drain()
	for _, path := range []string{"/readyz", "/api/v1/events"} {
		got := h.do(rq{method: "GET", path: path, bearer: bearer})
		if got.status != http.StatusServiceUnavailable {
			t.Fatalf("GET %s while draining: got %d %s; want 503", path, got.status, got.body)
		}
		if msg := got.errMsg(t); !strings.Contains(msg, "shutting down") {
			t.Errorf("GET %s while draining: message %q; want shutting down", path, msg)
		}
	}
}

// panicRuns is a run layer with a bug.
type panicRuns struct{ *fakeRuns }

func (panicRuns) List(context.Context) ([]conv.Run, error) { panic("bug in the run layer") }

func TestPanicIsALogged500(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Runs = panicRuns{c.Runs.(*fakeRuns)} }})
	got := h.do(rq{method: "GET", path: "/api/v1/runs", bearer: h.token("p")})
	if got.status != http.StatusInternalServerError {
		t.Fatalf("got %d; want 500", got.status)
	}
	if msg := got.errMsg(t); strings.Contains(msg, "bug") {
		t.Errorf("message %q leaks the panic; want a generic one", msg)
	}
	if !strings.Contains(h.logs.String(), "bug in the run layer") {
		t.Errorf("log lacks the panic:\n%s", h.logs.String())
	}
	// The server survives.
	if got := h.do(rq{method: "GET", path: "/healthz"}); got.status != http.StatusOK {
		t.Errorf("healthz after a panic: got %d; want 200", got.status)
	}
}

func TestReadyzChecksDependencies(t *testing.T) {
	var ready error = conv.Errorf(conv.EUnavailable, "tmux server is down")
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.Ready = func(context.Context) error { return ready }
	}})
	got := h.do(rq{method: "GET", path: "/readyz"})
	if got.status != http.StatusServiceUnavailable || !strings.Contains(got.errMsg(t), "tmux server is down") {
		t.Fatalf("got %d %s; want 503 naming the failed check", got.status, got.body)
	}
	ready = nil
	if got := h.do(rq{method: "GET", path: "/readyz"}); got.status != http.StatusOK {
		t.Fatalf("got %d; want 200 once the check passes", got.status)
	}
	h.db.Close()
	if got := h.do(rq{method: "GET", path: "/readyz"}); got.status != http.StatusServiceUnavailable {
		t.Fatalf("closed database: got %d; want 503", got.status)
	}
	if got := h.do(rq{method: "GET", path: "/healthz"}); got.status != http.StatusOK {
		t.Fatalf("healthz with a closed database: got %d; want 200", got.status)
	}
}

func TestDecodeIsStrict(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	fixture(t, h)
	bearer := h.token("decode")
	for _, tc := range []struct {
		name, body string
		status     int
		message    string
	}{
		{"empty", "", 400, "body is empty"},
		{"truncated", `{"text":`, 400, "ends too early"},
		{"wrong type", `{"text":5}`, 400, `field "text": got JSON number; want string`},
		{"array", `["text"]`, 400, "must be a JSON object"},
		{"two objects", `{"text":"a"}{"text":"b"}`, 400, "single JSON object"},
		{"trailing garbage", `{"text":"a"} x`, 400, "invalid"},
		{"syntax", `{"text" "a"}`, 400, "invalid JSON at byte"},
		{"blank text", `{"text":"  "}`, 400, "text is required"},
		{"trailing space is fine", "{\"text\":\"a\"}\n ", 204, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/reply", body: tc.body, bearer: bearer})
			if got.status != tc.status {
				t.Fatalf("got %d %s; want %d", got.status, got.body, tc.status)
			}
			if tc.message != "" {
				if msg := got.errMsg(t); !strings.Contains(msg, tc.message) {
					t.Fatalf("got message %q; want it to contain %q", msg, tc.message)
				}
			}
		})
	}
}
