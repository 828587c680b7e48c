package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
	"lab/internal/tmux"
)

// syncBuf is a goroutine-safe log sink.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// labServer is lab serving in-process on a loopback port.
type labServer struct {
	t     testing.TB
	base  string
	state string
	token string
	log   *syncBuf
	stop  func() // graceful shutdown, as on SIGTERM

	mu     sync.Mutex
	claude *fakeclaudeapi.Server // the demo's scripted models, once they serve
	codex  *fakecodexapi.Server
}

// claudeAPI is the demo's scripted Messages API, to read what the CLI
// asked it.
func (l *labServer) claudeAPI() *fakeclaudeapi.Server {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.claude == nil {
		l.t.Fatal("the demo's Claude Code model is not serving")
	}
	return l.claude
}

// codexAPI is the demo's scripted Responses API.
func (l *labServer) codexAPI() *fakecodexapi.Server {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.codex == nil {
		l.t.Fatal("the demo's Codex model is not serving")
	}
	return l.codex
}

// startLab runs `lab demo` in-process with a private state dir, HOME and
// the pinned CLI, and returns once it listens. It stops at cleanup, ending
// the test's tmux server too.
func startLab(t testing.TB) *labServer {
	t.Helper()
	state := claudetest.ShortTempDir(t, "labsrv")
	t.Cleanup(func() {
		// Runs outlive lab by design; the test owns its tmux server.
		tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background())
	})
	l := startLabAt(t, state, t.TempDir())
	t.Cleanup(l.stop)
	return l
}

// startLabAt serves `lab demo` from the given state dir and HOME until
// stop, with the pinned Claude Code CLI and, when installed, the pinned
// Codex CLI (a missing one fails only Codex runs).
func startLabAt(t testing.TB, state, home string) *labServer {
	t.Helper()
	flags := []string{"--claude-bin", claudetest.CLI(t)}
	if bin, err := codextest.FindCLI(); err == nil {
		flags = append(flags, "--codex-bin", bin)
	}
	return serveLab(t, state, home, true, flags...)
}

// serveLab serves lab (demo or serve) from the given state dir and HOME
// with extra flags until stop.
func serveLab(t testing.TB, state, home string, demo bool, flags ...string) *labServer {
	t.Helper()
	return serveLabWith(t, state, home, demo, nil, flags...)
}

// serveLabWith is serveLab with the parsed configuration changed by tweak
// (when set) before lab starts.
func serveLabWith(t testing.TB, state, home string, demo bool, tweak func(*serveConfig), flags ...string) *labServer {
	t.Helper()
	log := &syncBuf{}
	env := Env{Stdout: io.Discard, Stderr: log, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	c, err := parseServe(append([]string{"--addr", "127.0.0.1:0", "--state-dir", state}, flags...), env, demo)
	if err != nil {
		t.Fatal(err)
	}
	c.Self = selfArgv(t)
	l := &labServer{t: t, state: state, log: log}
	c.DemoModels = demoModels{
		Claude: func(f *fakeclaudeapi.Server) { l.mu.Lock(); l.claude = f; l.mu.Unlock() },
		Codex:  func(f *fakecodexapi.Server) { l.mu.Lock(); l.codex = f; l.mu.Unlock() },
	}
	if tweak != nil {
		tweak(&c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, c, env, func(a string) { addrs <- a }) }()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		cancel()
		t.Fatalf("lab exited before listening: %v\n%s", err, log)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("lab did not listen within 30s\n%s", log)
	}
	db, err := OpenStore(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := db.CreateAPIToken(context.Background(), fmt.Sprintf("e2e-%d", time.Now().UnixNano()))
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	l.base, l.token = "http://"+addr, token
	l.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("lab exited with %v", err)
			}
		})
	}
	return l
}

// call makes an API request and decodes a JSON answer into out (if set).
func (l *labServer) call(method, path string, body any, out any) int {
	l.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, l.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+l.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			l.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	if resp.StatusCode >= 400 && out != nil {
		l.t.Logf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode
}

func (l *labServer) page(runID string) conv.Page {
	var p conv.Page
	if code := l.call("GET", "/api/v1/runs/"+runID+"/messages", nil, &p); code != 200 {
		l.t.Fatalf("messages: status %d", code)
	}
	return p
}

func (l *labServer) waitPage(runID, what string, ok func(conv.Page) bool) conv.Page {
	l.t.Helper()
	var p conv.Page
	claudetest.Poll(l.t, 60*time.Second, what, func() bool {
		p = l.page(runID)
		return ok(p)
	})
	return p
}

func dialogMessages(p conv.Page, toolID string) []conv.Message {
	var out []conv.Message
	for _, m := range p.Messages {
		if m.Kind == conv.KindDialog && m.Dialog.ToolID == toolID {
			out = append(out, m)
		}
	}
	return out
}

// TestServeAnswersARealQuestion drives lab end to end: the real CLI in
// tmux against the scripted model, the pending dialog beside the stream,
// an answer through the API, and the outcome the transcript recorded.
func TestServeAnswersARealQuestion(t *testing.T) {
	lab := startLab(t)
	work := t.TempDir()
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: work, Prompt: "lab:single pick one"}, &run); code != 201 {
		t.Fatalf("start: status %d\n%s", code, lab.log)
	}
	p := lab.waitPage(run.ID, "a pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	if p.State != conv.StateQuestion || !p.PendingDialog.Answerable || len(p.PendingDialog.Questions) != 1 {
		t.Fatalf("got state %s dialog %+v; want an answerable single question", p.State, p.PendingDialog)
	}
	toolID := p.PendingDialog.ToolID
	// On 2.1.328 the transcript holds the pending tool_use too: at most one
	// stream message for it, pending, never a synthesized duplicate.
	if ds := dialogMessages(p, toolID); len(ds) > 1 || (len(ds) == 1 && ds[0].Dialog.Outcome != nil) {
		t.Fatalf("got dialog messages %+v; want at most one, pending", ds)
	}
	var runs struct{ Runs []conv.Run }
	lab.call("GET", "/api/v1/runs", nil, &runs)
	if len(runs.Runs) != 1 || !runs.Runs[0].Pending || runs.Runs[0].State != conv.StateQuestion {
		t.Fatalf("runs: got %+v; want one pending run in question", runs.Runs)
	}
	// The run and the start-up log name the version of the CLI under test,
	// and whether lab was verified with it.
	version := claudetest.CLIVersion(t)
	if r := runs.Runs[0]; r.CLIVersion != version || r.CLIVerified != claude.VersionVerified(version) {
		t.Fatalf("run CLI %q verified %v; want %q verified %v", r.CLIVersion, r.CLIVerified, version, claude.VersionVerified(version))
	}
	if !strings.Contains(lab.log.String(), "cli="+version) {
		t.Errorf("the log does not name the CLI version %s:\n%s", version, lab.log)
	}

	// /metrics is open and counts the run in its state.
	resp, err := http.Get(lab.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(metrics), `lab_runs{state="question"} 1`) || !strings.Contains(string(metrics), "lab_tailer_lag_seconds") {
		t.Fatalf("metrics lack the run gauge or tailer lag:\n%.2000s", metrics)
	}

	// A stale tool id is refused before any key is sent.
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", conv.Answer{ToolID: "toolu_stale", Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, nil); code != 409 {
		t.Fatalf("stale answer: got %d; want 409", code)
	}
	last := len(p.PendingDialog.Questions[0].Options) - 1
	want := p.PendingDialog.Questions[0].Options[last].Label
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", conv.Answer{ToolID: toolID, Answers: []conv.QuestionAnswer{{Chosen: []int{last}}}}, nil); code != 204 {
		t.Fatalf("answer: got %d; want 204\n%s", code, lab.log)
	}
	p = lab.waitPage(run.ID, "the recorded outcome", func(p conv.Page) bool {
		ds := dialogMessages(p, toolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil && p.State != conv.StateQuestion
	})
	out := dialogMessages(p, toolID)[0].Dialog.Outcome
	if out.Dismissed || len(out.Results) != 1 || len(out.Results[0].Chosen) != 1 || out.Results[0].Chosen[0] != want {
		t.Fatalf("got outcome %+v; want %q chosen", out, want)
	}
	if p.PendingDialog != nil {
		t.Fatalf("got pending %+v after the answer; want none", p.PendingDialog)
	}
	// Answering again is a conflict: the dialog is resolved.
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", conv.Answer{ToolID: toolID, Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, nil); code != 409 {
		t.Fatalf("second answer: got %d; want 409", code)
	}

	// History lists the run's session and serves it read-only.
	var hist struct {
		Sessions []conv.Session
		Total    int
	}
	lab.call("GET", "/api/v1/sessions", nil, &hist)
	if hist.Total != 1 || hist.Sessions[0].RunID != run.ID || hist.Sessions[0].ID != p.TranscriptID {
		t.Fatalf("sessions: got %+v; want the run's session owned by %s", hist, run.ID)
	}
	var hp conv.Page
	lab.call("GET", "/api/v1/sessions/"+p.TranscriptID+"/messages", nil, &hp)
	// The agent may still be replying, so history holds at least what the
	// run showed, with the same answered dialog.
	hd := dialogMessages(hp, toolID)
	if len(hp.Messages) < len(p.Messages) || len(hd) != 1 || hd[0].ContentHash != dialogMessages(p, toolID)[0].ContentHash {
		t.Fatalf("history window: got %d messages, dialog %+v; want at least %d with the same answered dialog", len(hp.Messages), hd, len(p.Messages))
	}
	if hp.PendingDialog != nil {
		t.Fatalf("history: got pending %+v; want none", hp.PendingDialog)
	}

	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop: got %d", code)
	}
	p = lab.page(run.ID)
	if p.State != conv.StateEnded || len(p.Messages) == 0 {
		t.Fatalf("after stop: got state %s with %d messages; want ended with the transcript", p.State, len(p.Messages))
	}
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/reply", map[string]string{"text": "hello?"}, nil); code != 409 {
		t.Fatalf("reply to an ended run: got %d; want 409", code)
	}
}

// TestServeRestartKeepsPendingRun stops lab while a question is pending and
// starts it again on the same state: the run is adopted, still pending, and
// the answer still lands.
func TestServeRestartKeepsPendingRun(t *testing.T) {
	state := claudetest.ShortTempDir(t, "labsrv")
	home := t.TempDir()
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	first := startLabAt(t, state, home)
	var run conv.Run
	if code := first.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:multi toppings"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, first.log)
	}
	// The hook spool can serve the dialog before the transcript has its
	// line; wait for both so the two snapshots compare like for like.
	before := first.waitPage(run.ID, "a pending question in spool and stream", func(p conv.Page) bool {
		return p.PendingDialog != nil && len(dialogMessages(p, p.PendingDialog.ToolID)) == 1
	})
	first.stop()

	second := startLabAt(t, state, home)
	defer second.stop()
	after := second.page(run.ID)
	if after.PendingDialog == nil || after.PendingDialog.ToolID != before.PendingDialog.ToolID || after.State != conv.StateQuestion {
		t.Fatalf("after restart: got state %s pending %+v; want the same pending dialog %s", after.State, after.PendingDialog, before.PendingDialog.ToolID)
	}
	if after.TranscriptID != before.TranscriptID || len(after.Messages) != len(before.Messages) {
		t.Fatalf("after restart: got transcript %s with %d messages; want %s with %d", after.TranscriptID, len(after.Messages), before.TranscriptID, len(before.Messages))
	}
	ans := conv.Answer{ToolID: after.PendingDialog.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{1, 0}}}}
	if code := second.call("POST", "/api/v1/runs/"+run.ID+"/answer", ans, nil); code != 204 {
		t.Fatalf("answer after restart: got %d\n%s", code, second.log)
	}
	opts := after.PendingDialog.Questions[0].Options
	p := second.waitPage(run.ID, "the recorded outcome", func(p conv.Page) bool {
		ds := dialogMessages(p, ans.ToolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil
	})
	got := dialogMessages(p, ans.ToolID)[0].Dialog.Outcome.Results[0].Chosen
	if fmt.Sprint(got) != fmt.Sprint([]string{opts[1].Label, opts[0].Label}) {
		t.Fatalf("got chosen %v; want %s then %s (toggle order)", got, opts[1].Label, opts[0].Label)
	}
}

// TestServeRejectsAPlanWithFeedback drives a plan approval end to end: the
// pending plan carries the picker's rows as the pane shows them, and a
// rejection's feedback is what the transcript records.
func TestServeRejectsAPlanWithFeedback(t *testing.T) {
	lab := startLab(t)
	var run conv.Run
	req := conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:plan add a greeting", PermissionMode: "plan"}
	if code := lab.call("POST", "/api/v1/runs", req, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}
	p := lab.waitPage(run.ID, "a pending plan with its rows", func(p conv.Page) bool {
		return p.PendingDialog != nil && len(p.PendingDialog.PlanRows) > 0
	})
	d := p.PendingDialog
	if d.Kind != conv.DialogPlan || !strings.Contains(d.Plan, "greeting") || len(d.PlanRows) != 3 || !strings.Contains(d.PlanRows[2], "Tell Claude what to change") {
		t.Fatalf("got plan dialog %+v; want the full plan and 2.1.328's three rows, feedback last", d)
	}
	two := 2
	ans := conv.Answer{ToolID: d.ToolID, Option: &two, Feedback: "Say hello in French instead"}
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", ans, nil); code != 204 {
		t.Fatalf("answer: %d\n%s", code, lab.log)
	}
	p = lab.waitPage(run.ID, "the recorded rejection", func(p conv.Page) bool {
		ds := dialogMessages(p, d.ToolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil
	})
	out := dialogMessages(p, d.ToolID)[0].Dialog.Outcome
	if out.Approved || out.Dismissed || out.Feedback != "Say hello in French instead" {
		t.Fatalf("got outcome %+v; want rejected with the feedback", out)
	}
}

func TestParseServeDefaults(t *testing.T) {
	env := Env{Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"HOME": "/home/op"}[k]
	}}
	c, err := parseServe(nil, env, false)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.StateDir != "/home/op/.local/state/lab" || c.ClaudeBin != "claude" || c.Home != "/home/op" || !c.SeedTrust {
		t.Fatalf("serve defaults: got %+v", c)
	}
	d, err := parseServe(nil, env, true)
	if err != nil {
		t.Fatal(err)
	}
	if d.StateDir != "/home/op/.local/state/lab/demo" || d.Home != "/home/op/.local/state/lab/demo/home" || !strings.HasSuffix(d.ClaudeBin, "/tools/claude-"+claude.PinnedVersion+"/node_modules/@anthropic-ai/claude-code/bin/claude.exe") {
		t.Fatalf("demo defaults: got %+v; want a private state dir, HOME and the pinned CLI", d)
	}
	if c.CodexBin != "codex" || c.CodexHome != "/home/op/.codex" || !strings.HasSuffix(d.CodexBin, "/bin/codex") || d.CodexHome != "/home/op/.local/state/lab/demo/codex-home" || !d.CodexJail {
		t.Fatalf("codex defaults: serve %q %q, demo %q %q jail %v; want codex on PATH and ~/.codex, the demo's pinned CLI and private home, jailed", c.CodexBin, c.CodexHome, d.CodexBin, d.CodexHome, d.CodexJail)
	}
	codexEnv := Env{Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"HOME": "/home/op", "CODEX_HOME": "/srv/codex"}[k]
	}}
	if g, err := parseServe(nil, codexEnv, false); err != nil || g.CodexHome != "/srv/codex" {
		t.Fatalf("CODEX_HOME: got %q, %v; want the operator's CODEX_HOME", g.CodexHome, err)
	}
	if g, err := parseServe(nil, codexEnv, true); err != nil || g.CodexHome != "/home/op/.local/state/lab/demo/codex-home" {
		t.Fatalf("demo with CODEX_HOME set: got %q, %v; want the demo's own, never the operator's", g.CodexHome, err)
	}
	if c.UserHome != "/home/op" || d.UserHome != "/home/op" || c.FolderRoots != nil {
		t.Fatalf("got user home %q (demo %q), roots %v; want ~ to mean the operator's home in both, roots defaulted later", c.UserHome, d.UserHome, c.FolderRoots)
	}
	f, err := parseServe([]string{"--folder-roots", "/srv/a:/srv/b"}, env, false)
	if err != nil || fmt.Sprint(f.FolderRoots) != "[/srv/a /srv/b]" {
		t.Fatalf("--folder-roots: got %v, %v", f.FolderRoots, err)
	}
	envRoots := Env{Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"HOME": "/home/op", "LAB_FOLDER_ROOTS": "/x:/y/z"}[k]
	}}
	if g, err := parseServe(nil, envRoots, false); err != nil || fmt.Sprint(g.FolderRoots) != "[/x /y/z]" {
		t.Fatalf("LAB_FOLDER_ROOTS: got %v, %v", g.FolderRoots, err)
	}
	if c.Heartbeat != 0 {
		t.Fatalf("heartbeat by default: %v; want 0 (the API's default)", c.Heartbeat)
	}
	if h, err := parseServe([]string{"--heartbeat", "1s"}, env, true); err != nil || h.Heartbeat != time.Second {
		t.Fatalf("--heartbeat 1s: got %v, %v", h.Heartbeat, err)
	}
	hbEnv := Env{Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"HOME": "/home/op", "LAB_HEARTBEAT": "2s"}[k]
	}}
	if h, err := parseServe(nil, hbEnv, false); err != nil || h.Heartbeat != 2*time.Second {
		t.Fatalf("LAB_HEARTBEAT=2s: got %v, %v", h.Heartbeat, err)
	}
	upEnv := func(v string) Env {
		return Env{Stderr: io.Discard, Getenv: func(k string) string {
			return map[string]string{"HOME": "/home/op", "LAB_UPLOAD_MAX_MB": v}[k]
		}}
	}
	if u, err := parseServe(nil, upEnv("50"), false); err != nil || u.UploadMaxMB != 50 {
		t.Fatalf("LAB_UPLOAD_MAX_MB=50: got %v, %v", u.UploadMaxMB, err)
	}
	if u, err := parseServe([]string{"--upload-max-mb", "5"}, upEnv("50"), false); err != nil || u.UploadMaxMB != 5 {
		t.Fatalf("--upload-max-mb 5 over LAB_UPLOAD_MAX_MB=50: got %v, %v", u.UploadMaxMB, err)
	}
	if _, err := parseServe(nil, upEnv("20MB"), false); err == nil || !strings.Contains(err.Error(), "LAB_UPLOAD_MAX_MB") {
		t.Fatalf("LAB_UPLOAD_MAX_MB=20MB: %v; want an error naming it", err)
	}
	for _, bad := range [][]string{{"--claude-env", "NOVALUE"}, {"extra"}, {"--log-level", "loud", "--nope"}, {"--heartbeat", "1ms"}, {"--heartbeat", "1h"}, {"--heartbeat", "soon"}} {
		if _, err := parseServe(bad, env, false); err == nil {
			t.Errorf("parseServe(%v) = nil error; want one", bad)
		}
	}
	e, err := parseServe([]string{"--claude-env", "A=1", "--claude-env", "B=x=y", "--allowed-hosts", "lab.lan, box"}, env, false)
	if err != nil || fmt.Sprint(e.ClaudeEnv) != "[A=1 B=x=y]" || fmt.Sprint(e.AllowedHosts) != "[lab.lan box]" {
		t.Fatalf("got %+v, %v", e, err)
	}
	if e.TrustedProxies != nil {
		t.Fatalf("trusted proxies by default: %v; want none", e.TrustedProxies)
	}
	proxyEnv := Env{Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"HOME": "/home/op", "LAB_TRUSTED_PROXIES": "10.0.0.0/8"}[k]
	}}
	for _, tc := range []struct {
		args []string
		env  Env
		want string
	}{
		{[]string{"--trusted-proxies", "127.0.0.1, ::1"}, env, "[127.0.0.1/32 ::1/128]"},
		{nil, proxyEnv, "[10.0.0.0/8]"},
		{[]string{"--trusted-proxies", "192.0.2.1"}, proxyEnv, "[192.0.2.1/32]"}, // the flag wins
	} {
		if g, err := parseServe(tc.args, tc.env, false); err != nil || fmt.Sprint(g.TrustedProxies) != tc.want {
			t.Errorf("trusted proxies from %v: got %v, %v; want %s", tc.args, g.TrustedProxies, err, tc.want)
		}
	}
	if _, err := parseServe([]string{"--trusted-proxies", "localhost"}, env, false); err == nil || !strings.Contains(err.Error(), "neither an IP address nor a CIDR") {
		t.Errorf("--trusted-proxies localhost: got %v; want an error saying what it wants", err)
	}
}
