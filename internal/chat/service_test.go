package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/store"
)

// stubRunner is a Runner over runs that exist only as spool folders: the
// test plays the CLI by writing hook payloads and transcript lines, so the
// whole live path (spool, tailer, fold, broker, HTTP) runs for real.
type stubRunner struct {
	dir string

	mu       sync.Mutex
	runs     map[string]conv.Run
	gone     map[string]bool
	panes    map[string]Pane // set by tests that read a pane
	external []conv.ExternalSession
	// startGate, when set, holds Start inside the runner's lock until it
	// is closed, as a start that is slow under load holds its own.
	startGate chan struct{}
}

func newStubRunner(t testing.TB) *stubRunner {
	return &stubRunner{dir: t.TempDir(), runs: map[string]conv.Run{}, gone: map[string]bool{}}
}

func (r *stubRunner) add(id string) conv.Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := conv.Run{ID: id, Provider: claude.Name, Cwd: "/w", State: conv.StateIdle, StartedAt: time.Now()}
	r.runs[id] = run
	os.MkdirAll(r.SpoolDir(id), 0o755)
	return run
}

func (r *stubRunner) List(ctx context.Context) ([]conv.Run, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []conv.Run
	for _, run := range r.runs {
		out = append(out, run)
	}
	return out, nil
}

func (r *stubRunner) Get(ctx context.Context, id string) (conv.Run, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run, ok := r.runs[id]
	if !ok {
		return run, conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	return run, nil
}

func (r *stubRunner) Start(ctx context.Context, req conv.StartRequest) (conv.Run, error) {
	r.mu.Lock()
	if g := r.startGate; g != nil {
		<-g
	}
	id := fmt.Sprintf("run-%d", len(r.runs)+1)
	r.mu.Unlock()
	return r.add(id), nil
}

func (r *stubRunner) Stop(ctx context.Context, id string) error {
	r.kill(id)
	_, err := r.Sweep(ctx)
	return err
}

// kill makes the run's process vanish; the next Sweep notices.
func (r *stubRunner) kill(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gone[id] = true
}

func (r *stubRunner) Sweep(ctx context.Context) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ended []string
	for id := range r.gone {
		run := r.runs[id]
		if run.State != conv.StateEnded {
			run.State = conv.StateEnded
			r.runs[id] = run
			ended = append(ended, id)
		}
	}
	return ended, nil
}

func (r *stubRunner) SpoolDir(id string) string { return filepath.Join(r.dir, id, "spool") }
func (r *stubRunner) Side(ctx context.Context, id string) (agent.Side, error) {
	return claude.OpenSpool(r.SpoolDir(id)), nil
}
func (r *stubRunner) Pane(id string) Pane {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.panes[id]; ok {
		return p
	}
	return nil

}
func (r *stubRunner) External(ctx context.Context) ([]conv.ExternalSession, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]conv.ExternalSession(nil), r.external...), nil
}
func (r *stubRunner) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	return conv.Run{}, conv.Errorf(conv.ENotFound, "no process %d", pid)
}
func (r *stubRunner) MarkSeen(ctx context.Context, id string, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	run, ok := r.runs[id]
	if !ok {
		return conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	if run.SeenAt == nil || at.After(*run.SeenAt) {
		run.SeenAt = &at
		r.runs[id] = run
	}
	return nil
}

// spoolEvent writes a hook payload the way the hook command does.
func spoolEvent(t testing.TB, dir, event string, payload map[string]any) {
	t.Helper()
	b, _ := json.Marshal(payload)
	name := fmt.Sprintf("%s.%d.%d.json", event, time.Now().UnixNano(), os.Getpid())
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

type liveFixture struct {
	runner     *stubRunner
	svc        *Service
	srv        *httptest.Server
	token      string
	transcript string
	spool      string
}

// newLiveFixture serves run-1 live; setup may prepare the runner (its
// panes) before the service follows the run.
func newLiveFixture(t testing.TB, setup ...func(*stubRunner)) *liveFixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	token, _, err := db.CreateAPIToken(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	runner := newStubRunner(t)
	runner.add("run-1")
	for _, f := range setup {
		f(runner)
	}
	broker := httpapi.NewBroker(0)
	lib := NewLibrary(testShelves(t.TempDir()), nil)
	svc, err := NewService(ctx, ServiceConfig{Runs: runner, Providers: []agent.Provider{claude.New()}, Library: lib, Publish: broker, SweepEvery: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	api, err := httpapi.New(httpapi.Config{Store: db, Runs: svc, Sessions: nopSessions{}, Broker: broker, Heartbeat: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api)
	t.Cleanup(func() { broker.Close(); srv.Close() })
	f := &liveFixture{runner: runner, svc: svc, srv: srv, token: token,
		spool: runner.SpoolDir("run-1"), transcript: filepath.Join(t.TempDir(), "sess-1.jsonl")}
	spoolEvent(t, f.spool, "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-1", "transcript_path": f.transcript, "source": "startup"})
	return f
}

type nopSessions struct{}

func (nopSessions) List(ctx context.Context, q httpapi.SessionQuery) (httpapi.SessionList, error) {
	return httpapi.SessionList{}, nil
}
func (nopSessions) Get(ctx context.Context, id string) (conv.Session, error) {
	return conv.Session{}, conv.Errorf(conv.ENotFound, "none")
}
func (nopSessions) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	return conv.Page{}, conv.Errorf(conv.ENotFound, "none")
}

func (f *liveFixture) get(t testing.TB, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: status %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// events subscribes to the SSE stream and returns a channel of the events.
func (f *liveFixture) events(t testing.TB) <-chan conv.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/api/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("events: status %d", resp.StatusCode)
	}
	ch := make(chan conv.Event, 256)
	go func() {
		defer resp.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var e conv.Event
				if json.Unmarshal([]byte(data), &e) == nil {
					ch <- e
				}
			}
		}
	}()
	return ch
}

// waitEvent returns the first event satisfying ok, failing after 10 s.
func waitEvent(t *testing.T, ch <-chan conv.Event, ok func(conv.Event) bool) conv.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e, open := <-ch:
			if !open {
				t.Fatal("event stream closed")
			}
			if ok(e) {
				return e
			}
		case <-deadline:
			t.Fatal("no matching event within 10s")
		}
	}
}

func TestLiveAppendReachesSSEAndAfterCursor(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	appendLines(t, f.transcript, lineUser("run ls"), lineToolUse("toolu_1", "Bash", map[string]any{"command": "ls"}))
	waitEvent(t, events, func(e conv.Event) bool {
		return e.Type == conv.EventMessagesChanged && e.RunID == "run-1" && e.State == conv.StateWorking
	})
	var first conv.Page
	f.get(t, "/api/v1/runs/run-1/messages", &first)
	if first.TranscriptID != "sess-1" || len(first.Messages) != 2 || first.State != conv.StateWorking {
		t.Fatalf("latest window: got id %q, %d messages, state %s", first.TranscriptID, len(first.Messages), first.State)
	}
	last := first.LastSeq

	appendLines(t, f.transcript, lineAssistantText("thinking about it", ""))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventMessagesChanged && e.BackpatchSeq == 0 })
	var next conv.Page
	f.get(t, fmt.Sprintf("/api/v1/runs/run-1/messages?after=%d", last), &next)
	if len(next.Messages) != 1 || next.Messages[0].Seq != last+1 || next.Messages[0].Text != "thinking about it" {
		t.Fatalf("after %d: got %+v; want exactly the appended message", last, next.Messages)
	}

	// The tool's result lands behind the cursor: the event names its seq.
	appendLines(t, f.transcript, lineToolResult("toolu_1", "a.go", nil))
	e := waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventMessagesChanged && e.BackpatchSeq > 0 })
	if e.BackpatchSeq != 2 {
		t.Fatalf("got backpatch_seq %d; want 2 (the tool message)", e.BackpatchSeq)
	}
	var patched conv.Page
	f.get(t, fmt.Sprintf("/api/v1/runs/run-1/messages?after=%d", e.BackpatchSeq-1), &patched)
	if len(patched.Messages) == 0 || patched.Messages[0].Tool == nil || patched.Messages[0].Tool.Status != conv.ToolOK {
		t.Fatalf("refetch from backpatch: got %+v; want the tool with its result first", patched.Messages)
	}
}

func TestLivePendingDialogFromSpoolThenResolved(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	appendLines(t, f.transcript, lineUser("ask me"))
	spoolEvent(t, f.spool, "PreToolUse", map[string]any{"hook_event_name": "PreToolUse", "session_id": "sess-1",
		"tool_name": "AskUserQuestion", "tool_use_id": "toolu_q", "tool_input": singleQuestion})
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateQuestion })
	var p conv.Page
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	if p.State != conv.StateQuestion || p.PendingDialog == nil || p.PendingDialog.ToolID != "toolu_q" || !p.PendingDialog.Answerable {
		t.Fatalf("got state %s pending %+v; want question with toolu_q", p.State, p.PendingDialog)
	}
	for _, m := range p.Messages {
		if m.Kind == conv.KindDialog {
			t.Fatalf("got a dialog message %+v before the transcript had one; the spool's dialog must stay beside the stream", m)
		}
	}
	var runs struct{ Runs []conv.Run }
	f.get(t, "/api/v1/runs", &runs)
	if len(runs.Runs) != 1 || !runs.Runs[0].Pending || runs.Runs[0].State != conv.StateQuestion {
		t.Fatalf("runs list: got %+v; want run-1 pending in question", runs.Runs)
	}

	// The CLI writes the tool_use and later its declined result; no
	// PostToolUse fires for a decline, so the transcript retires the spool.
	appendLines(t, f.transcript,
		lineToolUse("toolu_q", "AskUserQuestion", singleQuestion),
		lineToolResult("toolu_q", "User rejected tool use", map[string]any{"toolUseResult": "User rejected tool use", "toolDenialKind": "user-rejected"}))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State != conv.StateQuestion })
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	if p.PendingDialog != nil || p.State == conv.StateQuestion {
		t.Fatalf("after decline: got state %s pending %+v; want no pending dialog", p.State, p.PendingDialog)
	}
	var dialogs []conv.Message
	for _, m := range p.Messages {
		if m.Kind == conv.KindDialog {
			dialogs = append(dialogs, m)
		}
	}
	if len(dialogs) != 1 || dialogs[0].Dialog.Outcome == nil || !dialogs[0].Dialog.Outcome.Dismissed {
		t.Fatalf("got dialog messages %+v; want one, dismissed", dialogs)
	}
	left, _ := filepath.Glob(filepath.Join(f.spool, "PreToolUse.*"))
	if len(left) != 0 {
		t.Fatalf("spool still holds %v; want the resolved PreToolUse retired", left)
	}
}

func TestLiveEndedRunServesItsTranscript(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	appendLines(t, f.transcript, lineUser("hello"), lineAssistantText("hi", "end_turn"))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventMessagesChanged && e.State == conv.StateNeedsInput })
	f.runner.kill("run-1")
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateEnded })
	var p conv.Page
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	if p.State != conv.StateEnded || len(p.Messages) != 2 {
		t.Fatalf("ended run: got state %s, %d messages; want ended with 2", p.State, len(p.Messages))
	}
	err := f.svc.Reply(context.Background(), "run-1", "anyone?")
	if conv.KindOf(err) != conv.EConflict {
		t.Fatalf("reply to an ended run: got %v; want conflict", err)
	}
}

func TestLivePermissionPromptNeedsInput(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	appendLines(t, f.transcript, lineUser("delete it"), lineToolUse("toolu_b", "Bash", map[string]any{"command": "rm x"}))
	waitEvent(t, events, func(e conv.Event) bool { return e.State == conv.StateWorking })
	spoolEvent(t, f.spool, "Notification", map[string]any{"hook_event_name": "Notification", "session_id": "sess-1",
		"notification_type": "permission_prompt", "message": "Claude needs your permission to use Bash"})
	waitEvent(t, events, func(e conv.Event) bool { return e.State == conv.StateNeedsInput })
	// Approved at the terminal: the tool runs and the transcript grows.
	appendLines(t, f.transcript, lineToolResult("toolu_b", "", nil))
	waitEvent(t, events, func(e conv.Event) bool { return e.State == conv.StateWorking })
}

func TestLiveClearRotatesTranscript(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	appendLines(t, f.transcript, lineUser("before clear"), lineAssistantText("ok", "end_turn"))
	waitEvent(t, events, func(e conv.Event) bool { return e.State == conv.StateNeedsInput })
	var p conv.Page
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	if p.TranscriptID != "sess-1" || len(p.Messages) != 2 {
		t.Fatalf("before /clear: got %s with %d messages", p.TranscriptID, len(p.Messages))
	}
	// /clear starts a new session: a new SessionStart names a new file.
	next := filepath.Join(filepath.Dir(f.transcript), "sess-2.jsonl")
	appendLines(t, next, lineUser("after clear"))
	spoolEvent(t, f.spool, "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-2", "transcript_path": next, "source": "clear"})
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventMessagesChanged && e.State == conv.StateWorking })
	f.get(t, "/api/v1/runs/run-1/messages", &p)
	if p.TranscriptID != "sess-2" || len(p.Messages) != 1 || p.Messages[0].Text != "after clear" || p.Messages[0].Seq != 1 {
		t.Fatalf("after /clear: got %s with %+v; want sess-2 starting again at seq 1", p.TranscriptID, p.Messages)
	}
}
