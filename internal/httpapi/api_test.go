package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"lab/internal/conv"
)

func TestRunsFlow(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("flow")
	get := func(path string, v any) {
		t.Helper()
		got := h.do(rq{method: "GET", path: path, bearer: bearer})
		if got.status != http.StatusOK {
			t.Fatalf("GET %s: got %d %s", path, got.status, got.body)
		}
		if err := json.Unmarshal(got.body, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", bearer: bearer}); string(got.body) != `{"runs":[],"machines":[{"name":"here","local":true,"status":"ok"}]}`+"\n" {
		t.Fatalf("empty list: got %s; want no runs and this machine", got.body)
	}
	for _, tc := range []struct{ body, message string }{
		{`{}`, "cwd is required"},
		{`{"cwd":"relative/dir"}`, "absolute"},
		{`{"cwd":"/", "model":5}`, `field "model"`},
	} {
		got := h.do(rq{method: "POST", path: "/api/v1/runs", body: tc.body, bearer: bearer})
		if got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), tc.message) {
			t.Errorf("start %s: got %d %s; want 400 about %q", tc.body, got.status, got.body, tc.message)
		}
	}
	cwd := t.TempDir()
	got := h.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"` + cwd + `","prompt":"fix the bug","model":"opus"}`, bearer: bearer})
	var run conv.Run
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &run) != nil || run.ID != "r1" || run.Cwd != cwd {
		t.Fatalf("start: got %d %s; want 201 with run r1 in %s", got.status, got.body, cwd)
	}
	var list RunList
	get("/api/v1/runs", &list)
	if len(list.Runs) != 1 || list.Runs[0].ID != "r1" || list.Runs[0].State != conv.StateWorking {
		t.Fatalf("list = %+v; want r1 working", list)
	}

	// A pending dialog is served beside the stream, never in it.
	h.runs.ask("r1", conv.Dialog{ToolID: "toolu_9", Kind: conv.DialogQuestion, Answerable: true,
		Questions: []conv.Question{{Question: "Which file?", Options: []conv.Option{{Label: "a.go"}, {Label: "b.go"}}}}})
	var page conv.Page
	get("/api/v1/runs/r1/messages", &page)
	if page.State != conv.StateQuestion || page.PendingDialog == nil || page.PendingDialog.ToolID != "toolu_9" || len(page.Messages) != 1 {
		t.Fatalf("page = %+v; want state question, pending toolu_9 and one message", page)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/reply", body: `{"text":"hello"}`, bearer: bearer}); got.status != http.StatusConflict {
		t.Fatalf("reply while a dialog is pending: got %d; want 409", got.status)
	}
	for _, tc := range []struct{ body, message string }{
		{`{"answers":[{"chosen":[0]}]}`, "tool_id is required"},
		{`{"tool_id":"toolu_9"}`, "send answers"},
		{`{"tool_id":"toolu_9","answers":[{"chosen":[0]}],"option":0}`, "not both"},
		{`{"tool_id":"toolu_9","option":-1}`, "non-negative"},
		{`{"tool_id":"toolu_9","answers":[{"chosen":[-1]}]}`, "non-negative"},
		{`{"tool_id":"toolu_9","answers":[{"chosen":[]}]}`, "choose an option"},
		{`{"tool_id":"toolu_9","answers":[{"chosen":[0]}],"feedback":"x"}`, "feedback goes with"},
		{`{"tool_id":"toolu_9","answers":[{"chosen":[7]}]}`, "out of range"},
	} {
		got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/answer", body: tc.body, bearer: bearer})
		if got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), tc.message) {
			t.Errorf("answer %s: got %d %s; want 400 about %q", tc.body, got.status, got.body, tc.message)
		}
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/answer", body: `{"tool_id":"toolu_9","answers":[{"chosen":[1]}]}`, bearer: bearer}); got.status != http.StatusNoContent {
		t.Fatalf("answer: got %d %s; want 204", got.status, got.body)
	}
	get("/api/v1/runs/r1/messages?after=1", &page)
	if page.PendingDialog != nil || page.State == conv.StateQuestion || len(page.Messages) != 1 {
		t.Fatalf("after answering: page = %+v; want no pending dialog and the answered dialog appended", page)
	}
	d := page.Messages[0].Dialog
	if d == nil || d.Outcome == nil || len(d.Outcome.Results) != 1 || d.Outcome.Results[0].Chosen[0] != "b.go" {
		t.Fatalf("answered dialog = %+v; want an outcome choosing b.go", d)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/answer", body: `{"tool_id":"toolu_9","answers":[{"chosen":[1]}]}`, bearer: bearer}); got.status != http.StatusConflict {
		t.Fatalf("answering twice: got %d; want 409", got.status)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/stop", bearer: bearer}); got.status != http.StatusNoContent {
		t.Fatalf("stop: got %d; want 204", got.status)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/stop", bearer: bearer}); got.status != http.StatusConflict {
		t.Fatalf("stop twice: got %d; want 409", got.status)
	}
}

func TestMessageWindowQuery(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	fixture(t, h)
	bearer := h.token("q")
	for range 5 {
		h.do(rq{method: "POST", path: "/api/v1/runs/r1/reply", body: `{"text":"m"}`, bearer: bearer})
	}
	for _, tc := range []struct {
		query  string
		status int
		want   conv.Query // passed to the run layer
		seqs   string
	}{
		{"", 200, conv.Query{Limit: 100}, "1-5"},
		{"?limit=2", 200, conv.Query{Limit: 2}, "4-5"},
		{"?after=2&limit=2", 200, conv.Query{After: 2, Limit: 2}, "3-4"},
		{"?before=3", 200, conv.Query{Before: 3, Limit: 100}, "1-2"},
		{"?limit=500", 200, conv.Query{Limit: 500}, "1-5"},
		{"?after=3&before=4", 400, conv.Query{}, ""},
		{"?after=0&before=4", 400, conv.Query{}, ""},
		{"?limit=0", 400, conv.Query{}, ""},
		{"?limit=501", 400, conv.Query{}, ""},
		{"?after=-1", 400, conv.Query{}, ""},
		{"?after=x", 400, conv.Query{}, ""},
		{"?before=1e3", 400, conv.Query{}, ""},
		{"?after=99999999999999999999", 400, conv.Query{}, ""},
		{"?after=4&before=4", 400, conv.Query{}, ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			h.runs.mu.Lock()
			h.runs.lastQ = conv.Query{}
			h.runs.mu.Unlock()
			got := h.do(rq{method: "GET", path: "/api/v1/runs/r1/messages" + tc.query, bearer: bearer})
			if got.status != tc.status {
				t.Fatalf("got %d %s; want %d", got.status, got.body, tc.status)
			}
			if q := h.runs.query(); q != tc.want {
				t.Fatalf("run layer got %+v; want %+v", q, tc.want)
			}
			if tc.status != 200 {
				got.errMsg(t)
				return
			}
			var p conv.Page
			json.Unmarshal(got.body, &p)
			if seqs := strings.Join([]string{itoa(p.FirstSeq), itoa(p.LastSeq)}, "-"); seqs != tc.seqs {
				t.Fatalf("got seqs %s; want %s", seqs, tc.seqs)
			}
			if !strings.Contains(string(got.body), `"pending_dialog":null`) || !strings.Contains(string(got.body), `"messages":[`) {
				t.Fatalf("body %s: want pending_dialog null and a messages array", got.body)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSessionsList(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("history")
	base := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	for i, title := range []string{"oldest: write docs", "middle: fix tests", "newest: fix docs"} {
		p := filepath.Join(h.sessions.dir, "s"+itoa(i)+".jsonl")
		if err := os.WriteFile(p, []byte(title+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, base.Add(time.Duration(i)*time.Hour), base.Add(time.Duration(i)*time.Hour))
	}
	for _, tc := range []struct {
		query   string
		status  int
		ids     string
		total   int
		hasMore bool
	}{
		{"", 200, "s2 s1 s0", 3, false},
		{"?limit=2", 200, "s2 s1", 3, true},
		{"?limit=2&offset=2", 200, "s0", 3, false},
		{"?offset=9", 200, "", 3, false},
		{"?q=DOCS", 200, "s2 s0", 2, false},
		{"?q=nothing", 200, "", 0, false},
		{"?offset=-1", 400, "", 0, false},
		{"?limit=9999", 400, "", 0, false},
		{"?q=" + strings.Repeat("x", 201), 400, "", 0, false},
		{"?q=%00", 400, "", 0, false},        // NUL, refused as /folders refuses it
		{"?q=fix%1bdocs", 400, "", 0, false}, // an escape
		{"?q=%C2%85", 400, "", 0, false},     // NEL, a C1 control
		{"?q=%ff", 400, "", 0, false},        // not UTF-8
		{"?q=fix%09docs", 400, "", 0, false}, // a tab is a control too
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := h.do(rq{method: "GET", path: "/api/v1/sessions" + tc.query, bearer: bearer})
			if got.status != tc.status {
				t.Fatalf("got %d %s; want %d", got.status, got.body, tc.status)
			}
			if tc.status != 200 {
				if msg := got.errMsg(t); strings.HasPrefix(tc.query, "?q=%") && !strings.Contains(msg, "control character U+00") && !strings.Contains(msg, "UTF-8") {
					t.Fatalf("message %q names no control character", msg)
				}
				return
			}
			if !strings.Contains(string(got.body), `"sessions":[`) {
				t.Fatalf("body %s: want a sessions array, never null", got.body)
			}
			var l SessionList
			json.Unmarshal(got.body, &l)
			var ids []string
			for _, s := range l.Sessions {
				ids = append(ids, s.ID)
			}
			if strings.Join(ids, " ") != tc.ids || l.Total != tc.total || l.HasMore != tc.hasMore {
				t.Fatalf("got %v total %d more %v; want %q %d %v", ids, l.Total, l.HasMore, tc.ids, tc.total, tc.hasMore)
			}
		})
	}
}

func TestUIAndUnknownPaths(t *testing.T) {
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("spa:" + r.URL.Path)) })
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.UI = ui }})
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/", 200, "spa:/"},
		{"GET", "/runs/r1", 200, "spa:/runs/r1"},
		{"HEAD", "/", 200, ""},
		{"POST", "/", 405, `{"error":`},
		{"GET", "/api/v1/nope", 404, `{"error":`},
		{"GET", "/api/", 404, `{"error":`},
		{"PUT", "/api/v1/runs/r1/stop", 405, `{"error":`},
	} {
		got := h.do(rq{method: tc.method, path: tc.path})
		if got.status != tc.status || !strings.HasPrefix(string(got.body), tc.body) {
			t.Errorf("%s %s: got %d %q; want %d %q", tc.method, tc.path, got.status, got.body, tc.status, tc.body)
		}
		if got.header.Get("X-Frame-Options") != "DENY" || got.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: missing security headers: %v", tc.method, tc.path, got.header)
		}
		if api := strings.HasPrefix(tc.path, "/api/"); api != (got.header.Get("Cache-Control") == "no-store") {
			t.Errorf("%s %s: Cache-Control %q; want no-store exactly on the API", tc.method, tc.path, got.header.Get("Cache-Control"))
		}
	}
	bare := newHarness(t, harnessOpt{})
	if got := bare.do(rq{method: "GET", path: "/"}); got.status != http.StatusNotFound {
		t.Errorf("no UI: got %d; want 404", got.status)
	}
}

func TestMetrics(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	fixture(t, h)
	bearer := h.token("m")
	runsByState := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lab_runs", Help: "Runs by state."}, []string{"state"})
	h.srv.Registry().MustRegister(runsByState)
	runsByState.WithLabelValues("working").Set(2)
	h.do(rq{method: "GET", path: "/api/v1/runs/r1/messages", bearer: bearer})
	h.do(rq{method: "GET", path: "/api/v1/runs/r2/messages", bearer: bearer})
	h.do(rq{method: "GET", path: "/api/v1/runs"})
	h.do(rq{method: "GET", path: "/nowhere"})
	got := h.do(rq{method: "GET", path: "/metrics"})
	body := string(got.body)
	for _, want := range []string{
		`lab_http_requests_total{code="200",route="GET /api/v1/runs/{id}/messages"} 2`,
		`lab_http_requests_total{code="401",route="GET /api/v1/runs"} 1`,
		`lab_http_requests_total{code="404",route="/"} 1`,
		`lab_http_request_duration_seconds_count{code="200",route="GET /api/v1/runs/{id}/messages"} 2`,
		`lab_sse_subscribers 0`,
		`lab_runs{state="working"} 2`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(body, "r1/messages") {
		t.Error("metrics label a raw path; want route patterns only")
	}
	if _, err := New(Config{Store: h.db, Runs: h.runs, Sessions: h.sessions, Registry: h.srv.Registry()}); err == nil {
		t.Error("New with a registry that already has the HTTP metrics: got nil error; want a duplicate-registration error")
	}
}

func TestNewValidatesConfig(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	for _, cfg := range []Config{
		{Runs: h.runs, Sessions: h.sessions},
		{Store: h.db, Runs: h.runs, Sessions: h.sessions, BaseURL: "lab.example.org"},
		{Store: h.db, Runs: h.runs, Sessions: h.sessions, BaseURL: "ftp://lab.example.org"},
		{Store: h.db, Runs: h.runs, Sessions: h.sessions, BaseURL: "https://lab.example.org/?x=1"},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): got nil error; want one", cfg)
		}
	}
}

func TestSetupURL(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/setup#token=abc-_"},
		{"https://lab.example.org/", "https://lab.example.org/setup#token=abc-_"},
	} {
		if got := SetupURL(tc.base, "abc-_"); got != tc.want {
			t.Errorf("SetupURL(%q) = %q; want %q", tc.base, got, tc.want)
		}
	}
}

func TestSessionByID(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("history")
	if err := os.WriteFile(filepath.Join(h.sessions.dir, "s7.jsonl"), []byte("fix the docs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := h.do(rq{method: "GET", path: "/api/v1/sessions/s7", bearer: bearer})
	var s conv.Session
	if got.status != 200 || json.Unmarshal(got.body, &s) != nil || s.ID != "s7" || s.Title != "fix the docs" {
		t.Fatalf("got %d %s; want session s7 with its title", got.status, got.body)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/sessions/nope", bearer: bearer}); got.status != 404 {
		t.Fatalf("unknown session: got %d; want 404", got.status)
	} else {
		got.errMsg(t)
	}
}

func TestDemoScenarios(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	got := h.do(rq{method: "GET", path: "/api/v1/demo/scenarios", bearer: h.token("demo")})
	if got.status != 200 || string(got.body) != `{"scenarios":[{"provider":"agent","keyword":"lab:plan","summary":"a plan","permission_mode":"plan"}]}`+"\n" {
		t.Fatalf("got %d %s; want the configured scenarios", got.status, got.body)
	}
	real := newHarness(t, harnessOpt{config: func(c *Config) { c.Scenarios = nil }})
	got = real.do(rq{method: "GET", path: "/api/v1/demo/scenarios", bearer: real.token("demo")})
	if got.status != 404 || !strings.Contains(got.errMsg(t), "not a demo") {
		t.Fatalf("without scenarios: got %d %s; want 404", got.status, got.body)
	}
}
