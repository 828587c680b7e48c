package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/tmux"
)

// The Codex CLI end to end through lab's real server wiring (`lab demo`):
// the pinned CLI jailed in a network namespace with only loopback, talking
// to the scripted Responses API, driven only through the API.

// startCodexLab serves `lab demo` with both pinned CLIs; Codex must be
// installed (the test fails, never skips, without it).
func startCodexLab(t *testing.T) *labServer {
	t.Helper()
	codextest.CLI(t)
	return startLab(t)
}

// startCodex starts a Codex run through the API.
func (l *labServer) startCodex(req conv.StartRequest) conv.Run {
	l.t.Helper()
	req.Provider = "codex"
	var run conv.Run
	if code := l.call("POST", "/api/v1/runs", req, &run); code != 201 {
		l.t.Fatalf("start: status %d\n%s", code, l.log)
	}
	if run.Provider != "codex" {
		l.t.Fatalf("run %+v; want it to record provider codex", run)
	}
	return run
}

// answer posts an answer and wants 204.
func (l *labServer) answer(runID string, a conv.Answer) {
	l.t.Helper()
	if code := l.call("POST", "/api/v1/runs/"+runID+"/answer", a, nil); code != 204 {
		l.t.Fatalf("answer %+v: status %d\n%s", a, code, l.log)
	}
}

// reply posts a reply and wants 204.
func (l *labServer) reply(runID, text string) {
	l.t.Helper()
	if code := l.call("POST", "/api/v1/runs/"+runID+"/reply", map[string]string{"text": text}, nil); code != 204 {
		l.t.Fatalf("reply %q: status %d\n%s", text, code, l.log)
	}
}

// lastAssistant is the newest assistant text, "" when none.
func lastAssistant(p conv.Page) string {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		if m := p.Messages[i]; m.Kind == conv.KindText && m.Role == conv.RoleAssistant {
			return m.Text
		}
	}
	return ""
}

// toolMessage is the stream's tool message for id, or nil.
func toolMessage(p conv.Page, id string) *conv.ToolCall {
	for _, m := range p.Messages {
		if m.Kind == conv.KindTool && m.Tool.ID == id {
			return m.Tool
		}
	}
	return nil
}

// waitPane waits until the run's pane shows want.
func (l *labServer) waitPane(runID, want string) {
	l.t.Helper()
	tm := tmux.New(filepath.Join(l.state, "tmux.sock"))
	var last string
	codextest.Poll(l.t, 60*time.Second, "the pane to show "+want, func() bool {
		last, _ = tm.Capture(context.Background(), "=lab-"+runID+":")
		return strings.Contains(last, want)
	})
}

// run is the run as GET /runs lists it.
func (l *labServer) run(id string) conv.Run {
	l.t.Helper()
	var list struct{ Runs []conv.Run }
	l.call("GET", "/api/v1/runs", nil, &list)
	for _, r := range list.Runs {
		if r.ID == id {
			return r
		}
	}
	l.t.Fatalf("run %s is not listed", id)
	return conv.Run{}
}

// optionOf is the index of the first permission option with role r.
func optionOf(t *testing.T, d *conv.Dialog, r conv.OptionRole) int {
	t.Helper()
	for i, o := range d.Permission.Options {
		if o.Role == r {
			return i
		}
	}
	t.Fatalf("permission %+v offers no %s option", d.Permission, r)
	return -1
}

// TestServeCodexRun: a question answered, a command approved and another
// denied through the API (the denial retired from the spool), a reply, an
// interrupt, the rollout in history, and a resume that continues it.
func TestServeCodexRun(t *testing.T) {
	lab := startCodexLab(t)
	var ps httpapi.ProviderList
	lab.call("GET", "/api/v1/providers", nil, &ps)
	if len(ps.Providers) != 2 || ps.Providers[0].Name != "claude" || ps.Providers[1].Name != "codex" || !ps.Providers[1].Resume {
		t.Fatalf("providers %+v; want claude, then codex (which resumes)", ps.Providers)
	}
	work := t.TempDir()
	run := lab.startCodex(conv.StartRequest{Cwd: work, Prompt: "lab:single pick a database"})

	// A question, answered with its second option.
	p := lab.waitPage(run.ID, "a pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	d := p.PendingDialog
	if p.State != conv.StateQuestion || d.Kind != conv.DialogQuestion || !d.Answerable || d.Questions[0].Question != "Which database should we use?" {
		t.Fatalf("state %s, dialog %+v; want the answerable database question", p.State, d)
	}
	lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{1}}}})
	p = lab.waitPage(run.ID, "the recorded answer", func(p conv.Page) bool {
		ds := dialogMessages(p, d.ToolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil && strings.Contains(lastAssistant(p), "PostgreSQL") && p.State == conv.StateNeedsInput
	})
	if out := dialogMessages(p, d.ToolID)[0].Dialog.Outcome; out.Dismissed || len(out.Results) != 1 || out.Results[0].Chosen[0] != "PostgreSQL" {
		t.Fatalf("outcome %+v; want PostgreSQL chosen", out)
	}

	// A command approval, allowed once: the command runs.
	lab.reply(run.ID, "lab:permission make the probe")
	p = lab.waitPage(run.ID, "a pending command approval", func(p conv.Page) bool {
		return p.PendingDialog != nil && p.PendingDialog.Kind == conv.DialogPermission && len(p.PendingDialog.Permission.Options) > 0
	})
	d = p.PendingDialog
	if !strings.Contains(d.Permission.Command, "lab-permission-probe.txt") || p.State != conv.StateQuestion {
		t.Fatalf("permission %+v in state %s; want the probe command", d.Permission, p.State)
	}
	allow := optionOf(t, d, conv.RoleAllowOnce)
	lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Option: &allow})
	p = lab.waitPage(run.ID, "the command's output", func(p conv.Page) bool {
		tc := toolMessage(p, d.ToolID)
		return tc != nil && tc.Status == conv.ToolOK && p.PendingDialog == nil && p.State == conv.StateNeedsInput
	})
	if tc := toolMessage(p, d.ToolID); !strings.Contains(tc.Output, "created") {
		t.Fatalf("tool %+v; want the command's output", tc)
	}

	// The same command again, denied: the turn stops, the prompt is gone
	// from the spool for good, and what to do instead is a reply.
	lab.reply(run.ID, "lab:permission once more")
	p = lab.waitPage(run.ID, "a second command approval", func(p conv.Page) bool {
		return p.PendingDialog != nil && p.PendingDialog.Kind == conv.DialogPermission && p.PendingDialog.ToolID != d.ToolID && len(p.PendingDialog.Permission.Options) > 0
	})
	denied := p.PendingDialog
	deny := optionOf(t, denied, conv.RoleDeny)
	if denied.Permission.Options[deny].Feedback {
		t.Fatalf("deny option %+v takes feedback; Codex's denial does not", denied.Permission.Options[deny])
	}
	lab.answer(run.ID, conv.Answer{ToolID: denied.ToolID, Option: &deny})
	p = lab.waitPage(run.ID, "the denial recorded", func(p conv.Page) bool {
		tc := toolMessage(p, denied.ToolID)
		return tc != nil && tc.Status != conv.ToolRunning && p.PendingDialog == nil && p.State == conv.StateNeedsInput
	})
	if tc := toolMessage(p, denied.ToolID); tc.Decision != nil {
		t.Fatalf("tool %+v has a decision; Codex records none", tc)
	}
	// Retired: no hook file of the denied call is left to resurrect it.
	spooled, _ := filepath.Glob(filepath.Join(lab.state, "runs", run.ID, "spool", "*.json"))
	for _, f := range spooled {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), denied.ToolID) {
			t.Fatalf("spool file %s still names the denied call %s", f, denied.ToolID)
		}
	}
	lab.reply(run.ID, "lab:text do not touch files")
	p = lab.waitPage(run.ID, "the reply's answer", func(p conv.Page) bool {
		return strings.Contains(lastAssistant(p), "You said: lab:text do not touch files") && p.State == conv.StateNeedsInput
	})
	if p.PendingDialog != nil {
		t.Fatalf("pending %+v after the denial and a reply; want none (the denial is retired)", p.PendingDialog)
	}

	// A slow answer, interrupted.
	lab.reply(run.ID, "lab:slow tell me a story")
	lab.waitPage(run.ID, "the story streaming", func(p conv.Page) bool { return p.State == conv.StateWorking })
	lab.waitPane(run.ID, "word3 ")
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/interrupt", nil, nil); code != 204 {
		t.Fatalf("interrupt: %d\n%s", code, lab.log)
	}
	p = lab.waitPage(run.ID, "the interrupt", func(p conv.Page) bool {
		n := len(p.Messages)
		return n > 0 && p.Messages[n-1].Kind == conv.KindLifecycle && p.State == conv.StateNeedsInput
	})

	// History lists the rollout as the run's Codex session.
	r := lab.run(run.ID)
	var hist struct {
		Sessions []conv.Session
		Total    int
	}
	lab.call("GET", "/api/v1/sessions", nil, &hist)
	if hist.Total != 1 || hist.Sessions[0].Provider != "codex" || hist.Sessions[0].ID != r.SessionID || hist.Sessions[0].RunID != run.ID || !strings.HasPrefix(p.TranscriptID, "rollout-") {
		t.Fatalf("sessions %+v, run %+v, transcript %s; want the run's rollout", hist, r, p.TranscriptID)
	}
	before, tid := len(p.Messages), p.TranscriptID

	// Stopped and resumed: the same rollout goes on, the old turns above.
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop: %d", code)
	}
	again := lab.startCodex(conv.StartRequest{Cwd: work, Resume: r.SessionID, Prompt: "lab:text after the resume"})
	p = lab.waitPage(again.ID, "the resumed turn", func(p conv.Page) bool {
		return strings.Contains(lastAssistant(p), "You said: lab:text after the resume") && p.State == conv.StateNeedsInput
	})
	if p.TranscriptID != tid || len(p.Messages) < before+2 || p.Messages[0].Text != "lab:single pick a database" {
		t.Fatalf("resumed chat of %d messages (first %+v); want the %d earlier ones, then the new turn", len(p.Messages), p.Messages[0], before)
	}
	r2 := lab.run(again.ID)
	if r2.SessionID != r.SessionID || r2.TranscriptPath != r.TranscriptPath {
		t.Fatalf("resumed run %+v; want session %s in %s", r2, r.SessionID, r.TranscriptPath)
	}
}

// TestServeCodexPlanClearsContext: a run started in Plan mode (which only a
// key enters: the run's opening), its plan served with the picker's rows
// and what each does, then approved through "clear context and implement",
// which starts a new session and rollout: the run follows it.
func TestServeCodexPlanClearsContext(t *testing.T) {
	lab := startCodexLab(t)
	run := lab.startCodex(conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:plan add a greeting", PermissionMode: "plan"})
	p := lab.waitPage(run.ID, "a pending plan dressed from the pane", func(p conv.Page) bool {
		return p.PendingDialog != nil && p.PendingDialog.Kind == conv.DialogPlan
	})
	d := p.PendingDialog
	roles := ""
	for _, o := range d.PlanOptions {
		roles += string(o.Role) + "/" + o.Mode + " "
	}
	if !strings.Contains(d.Plan, "add a greeting") || len(d.PlanRows) != 3 || roles != "approve/ approve/fresh feedback/ " {
		t.Fatalf("plan %+v (roles %q); want the plan and its three rows: approve, approve in a fresh context, keep planning", d, roles)
	}
	old := lab.run(run.ID)
	fresh := 1
	lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Option: &fresh})
	p = lab.waitPage(run.ID, "the new rollout's first turn", func(p conv.Page) bool {
		return strings.Contains(lastAssistant(p), "Read the approved plan") && p.State == conv.StateNeedsInput
	})
	now := lab.run(run.ID)
	if now.SessionID == old.SessionID || now.TranscriptPath == old.TranscriptPath || p.PendingDialog != nil {
		t.Fatalf("run %+v after clearing (was %+v), pending %+v; want a new session followed and nothing pending", now, old, p.PendingDialog)
	}
	if len(p.Messages) == 0 || p.Messages[0].Role != conv.RoleUser || !strings.HasPrefix(p.Messages[0].Text, "Read the approved plan") {
		t.Fatalf("new chat %+v; want the CLI's own prompt to implement the approved plan first", p.Messages)
	}
}

// A lab whose Codex CLI is missing still serves Claude Code runs; only a
// Codex start fails, with 503 and a message that says how to fix it.
func TestServeWithoutCodex(t *testing.T) {
	state := codextest.ShortTempDir(t, "labsrv")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	lab := serveLab(t, state, t.TempDir(), true, "--claude-bin", claudetest.CLI(t), "--codex-bin", "/nonexistent/codex")
	t.Cleanup(lab.stop)
	var ps httpapi.ProviderList
	if code := lab.call("GET", "/api/v1/providers", nil, &ps); code != 200 || len(ps.Providers) != 2 {
		t.Fatalf("providers: %d %+v; want both listed", code, ps.Providers)
	}
	req := conv.StartRequest{Provider: "codex", Cwd: t.TempDir(), Prompt: "lab:text hi"}
	b, _ := json.Marshal(req)
	hr, _ := http.NewRequest("POST", lab.base+"/api/v1/runs", bytes.NewReader(b))
	hr.Header.Set("Authorization", "Bearer "+lab.token)
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(body), "the Codex CLI is not available") || !strings.Contains(string(body), "/nonexistent/codex") {
		t.Fatalf("codex start: %d %s; want 503 naming the missing binary", resp.StatusCode, body)
	}
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text hi"}, &run); code != 201 || run.Provider != "claude" {
		t.Fatalf("claude start: %d %+v; want a run of the default provider", code, run)
	}
	lab.waitPage(run.ID, "the Claude Code run's answer", func(p conv.Page) bool { return strings.Contains(lastAssistant(p), "hi") })
}

// TestServeCodexEditAsksUnderTmp: the demo's edit scenario writes beside
// the run's folder to show an approval. With the folder under /tmp the
// parent is /tmp, which the workspace-write sandbox lets the CLI write
// unless the demo keeps /tmp out of its writable roots: then the file was
// written without an approval card.
func TestServeCodexEditAsksUnderTmp(t *testing.T) {
	lab := startCodexLab(t)
	work, err := os.MkdirTemp("/tmp", "lab-edit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	probe := filepath.Join(filepath.Dir(work), "lab-edit-probe.txt")
	os.Remove(probe)
	t.Cleanup(func() { os.Remove(probe) })
	run := lab.startCodex(conv.StartRequest{Cwd: work, Prompt: "lab:edit add the file"})
	p := lab.waitPage(run.ID, "an edit approval", func(p conv.Page) bool {
		return (p.PendingDialog != nil && p.PendingDialog.Kind == conv.DialogPermission && len(p.PendingDialog.Permission.Options) > 0) ||
			p.State == conv.StateNeedsInput
	})
	d := p.PendingDialog
	if d == nil {
		_, statErr := os.Stat(probe)
		t.Fatalf("no approval; the turn ended (the file written: %v)", statErr == nil)
	}
	if d.Permission.Path != probe || !strings.Contains(d.Permission.Diff, "+hello from lab") {
		t.Fatalf("permission %+v; want the probe beside %s with its diff", d.Permission, work)
	}
	if _, err := os.Stat(probe); err == nil {
		t.Fatal("the file exists before the approval")
	}
	allow := optionOf(t, d, conv.RoleAllowOnce)
	lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Option: &allow})
	claudetest.Poll(t, 60*time.Second, "the approved file", func() bool { _, err := os.Stat(probe); return err == nil })
}
