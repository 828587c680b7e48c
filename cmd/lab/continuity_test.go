package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/httpapi"
	"lab/internal/tmux"
)

// keepRig is lab serving for real (not the demo) with the pinned CLI
// pointed at a scripted model the test can inspect, in an isolated HOME;
// the test plays the operator's own terminal with a tmux server of its
// own, which lab never started.
type keepRig struct {
	t    *testing.T
	lab  *labServer
	api  *fakeclaudeapi.Server
	bin  string
	home string
	work string
	ops  *tmux.Server // the operator's tmux, not lab's
}

func startKeepRig(t *testing.T) *keepRig {
	t.Helper()
	r := &keepRig{t: t, bin: claudetest.CLI(t), api: claudetest.API(t, fakeclaudeapi.Options{})}
	r.work = filepath.Join(claudetest.ShortTempDir(t, "labkw"), "work")
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		t.Fatal(err)
	}
	r.home = claudetest.Home(t, r.work)
	r.ops = claudetest.Tmux(t)
	state := claudetest.ShortTempDir(t, "labks")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	flags := []string{"--claude-bin", r.bin}
	for k, v := range claudetest.Env(r.home, r.api.URL()) {
		flags = append(flags, "--claude-env", k+"="+v)
	}
	r.lab = serveLab(t, state, r.home, false, flags...)
	t.Cleanup(r.lab.stop)
	return r
}

// request waits for the scripted model to receive a prompt containing s.
func (r *keepRig) request(s string) fakeclaudeapi.Request {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	req, err := r.api.Wait(ctx, func(q fakeclaudeapi.Request) bool { return q.Kind == "messages" && strings.Contains(q.Prompt, s) })
	if err != nil {
		r.t.Fatalf("the model never got a prompt with %q: %v\n%s", s, err, r.lab.log)
	}
	return req
}

// conversation is what a request carried before its newest prompt: the
// typed text of each user and assistant message.
func conversation(q fakeclaudeapi.Request) string {
	var said []string
	for _, m := range q.Messages {
		if m.Role == "user" || m.Role == "assistant" {
			said = append(said, m.Role+": "+m.TypedText())
		}
	}
	return strings.Join(said, "\n")
}

// reply sends text through lab once the run's prompt takes it (the CLI
// may still be drawing its screen right after it started).
func (r *keepRig) reply(runID, text string) {
	r.t.Helper()
	claudetest.Poll(r.t, 60*time.Second, "lab to take the reply "+text, func() bool {
		return r.lab.call("POST", "/api/v1/runs/"+runID+"/reply", map[string]string{"text": text}, nil) == 204
	})
}

// assistantSaid waits for an assistant message containing s.
func (r *keepRig) assistantSaid(runID, s string) conv.Page {
	r.t.Helper()
	return r.lab.waitPage(runID, "the assistant saying "+s, func(p conv.Page) bool {
		for _, m := range p.Messages {
			if m.Kind == conv.KindText && m.Role == conv.RoleAssistant && strings.Contains(m.Text, s) {
				return true
			}
		}
		return false
	})
}

// sameHead fails unless the page starts with want, message for message:
// the same seqs and the same content.
func sameHead(t *testing.T, what string, got conv.Page, want []conv.Message) {
	t.Helper()
	if len(got.Messages) < len(want) {
		t.Fatalf("%s: got %d messages; want the %d earlier ones first", what, len(got.Messages), len(want))
	}
	for i, w := range want {
		g := got.Messages[i]
		if g.Seq != w.Seq || g.ContentHash != w.ContentHash || g.Kind != w.Kind || g.Text != w.Text {
			t.Fatalf("%s: message %d is seq %d %s %q (hash %s); want seq %d %s %q (hash %s)", what, i, g.Seq, g.Kind, g.Text, g.ContentHash, w.Seq, w.Kind, w.Text, w.ContentHash)
		}
	}
}

func (r *keepRig) sessions(q string) []conv.Session {
	r.t.Helper()
	var l httpapi.SessionList
	if code := r.lab.call("GET", "/api/v1/sessions?q="+q, nil, &l); code != 200 {
		r.t.Fatalf("sessions: %d", code)
	}
	return l.Sessions
}

// Resume an ended run and then a history session the CLI ran outside lab:
// the model receives the earlier turns, and each new run's chat is the old
// stream (same seqs, same content) with the new turns below.
func TestResumeAnEndedRunAndAHistorySession(t *testing.T) {
	r := startKeepRig(t)
	var first conv.Run
	if code := r.lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: r.work, Prompt: "lab:text remember the word banana"}, &first); code != 201 {
		t.Fatalf("start: %d\n%s", code, r.lab.log)
	}
	before := r.assistantSaid(first.ID, "You said: lab:text remember the word banana")
	if code := r.lab.call("POST", "/api/v1/runs/"+first.ID+"/resume", nil, &conv.Run{}); code != 409 {
		t.Fatalf("resuming a live run: got %d; want 409", code)
	}
	r.lab.call("POST", "/api/v1/runs/"+first.ID+"/stop", nil, nil)

	var second conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/"+first.ID+"/resume", nil, &second); code != 201 {
		t.Fatalf("resume: %d\n%s", code, r.lab.log)
	}
	if second.ID == first.ID || second.Cwd != r.work || second.Title != first.Title || second.SessionID != before.TranscriptID {
		t.Fatalf("resumed run %+v; want a new run in %s titled %q continuing session %s", second, r.work, first.Title, before.TranscriptID)
	}
	if code := r.lab.call("POST", "/api/v1/runs/"+first.ID+"/resume", nil, &conv.Run{}); code != 409 {
		t.Fatalf("resuming a session a live run follows: got %d; want 409", code)
	}
	resumed := r.lab.waitPage(second.ID, "the earlier chat in the resumed run", func(p conv.Page) bool {
		return len(p.Messages) >= len(before.Messages)
	})
	if resumed.TranscriptID != before.TranscriptID {
		t.Fatalf("resumed transcript %q; want the same session %q", resumed.TranscriptID, before.TranscriptID)
	}
	sameHead(t, "resumed run before its first reply", resumed, before.Messages)

	r.reply(second.ID, "lab:text which word was it")
	req := r.request("which word was it")
	if c := conversation(req); !strings.Contains(c, "user: lab:text remember the word banana") || !strings.Contains(c, "assistant: Hello from lab's scripted model. You said: lab:text remember the word banana") {
		t.Fatalf("the resumed request carried:\n%s\nwant the earlier prompt and answer", c)
	}
	after := r.assistantSaid(second.ID, "You said: lab:text which word was it")
	sameHead(t, "resumed run after its reply", after, before.Messages)
	if last := after.Messages[len(after.Messages)-1]; last.Seq <= before.LastSeq {
		t.Fatalf("the new answer is at seq %d; want it after the old stream's last seq %d", last.Seq, before.LastSeq)
	}
	for _, s := range r.sessions("") {
		if s.ID == before.TranscriptID && (s.RunID != second.ID || !s.RunLive) {
			t.Fatalf("history row %+v; want it linked to the live run %s", s, second.ID)
		}
	}
	r.lab.call("POST", "/api/v1/runs/"+second.ID+"/stop", nil, nil)

	// A session the operator ran in a terminal, ended, found in history.
	r.ops.NewSession(context.Background(), tmux.SessionOptions{Name: "term", Dir: r.work, Width: 120, Height: 45,
		Env: claudetest.Env(r.home, r.api.URL()), Argv: []string{r.bin, "--", "lab:text remember the word kiwi"}})
	r.request("remember the word kiwi")
	var hist conv.Session
	claudetest.Poll(t, 60*time.Second, "the terminal session in history with its answer", func() bool {
		for _, s := range r.sessions("kiwi") {
			hist = s
			b, _ := os.ReadFile(filepath.Join(r.home, ".claude", "projects", claude.ProjectSlug(r.work), s.ID+".jsonl"))
			return strings.Contains(string(b), "You said: lab:text remember the word kiwi")
		}
		return false
	})
	r.ops.KillSession(context.Background(), "term")
	claudetest.Poll(t, 30*time.Second, "the terminal CLI gone", func() bool {
		ents, _ := claude.ReadRegistry(r.home)
		return len(ents) == 0
	})
	var histPage conv.Page
	r.lab.call("GET", "/api/v1/sessions/"+hist.ID+"/messages", nil, &histPage)
	var third conv.Run
	if code := r.lab.call("POST", "/api/v1/sessions/"+hist.ID+"/resume", nil, &third); code != 201 {
		t.Fatalf("resume from history: %d\n%s", code, r.lab.log)
	}
	if third.Cwd != r.work || third.Title != "lab:text remember the word kiwi" {
		t.Fatalf("resumed history run %+v; want it in %s titled by the session's prompt", third, r.work)
	}
	if code := r.lab.call("POST", "/api/v1/sessions/"+hist.ID+"/resume", nil, &conv.Run{}); code != 409 {
		t.Fatalf("resuming a history session twice: got %d; want 409", code)
	}
	p := r.lab.waitPage(third.ID, "the history chat in the resumed run", func(p conv.Page) bool { return len(p.Messages) >= len(histPage.Messages) })
	sameHead(t, "resumed history session", p, histPage.Messages)
	r.reply(third.ID, "lab:text and which fruit")
	if c := conversation(r.request("and which fruit")); !strings.Contains(c, "user: lab:text remember the word kiwi") {
		t.Fatalf("the resumed history request carried:\n%s\nwant the kiwi turn", c)
	}
	p = r.assistantSaid(third.ID, "You said: lab:text and which fruit")
	sameHead(t, "resumed history session after its reply", p, histPage.Messages)
	if s := r.sessions("kiwi"); len(s) != 1 || s[0].RunID != third.ID || !s[0].RunLive {
		t.Fatalf("history rows %+v; want the kiwi session linked to live run %s", s, third.ID)
	}
	var one conv.Session
	if code := r.lab.call("GET", "/api/v1/sessions/"+hist.ID, nil, &one); code != 200 || one.RunID != third.ID || !one.RunLive {
		t.Fatalf("GET session: %d %+v; want it linked to live run %s", code, one, third.ID)
	}
	r.lab.call("POST", "/api/v1/runs/"+third.ID+"/stop", nil, nil)
}

// startOutsideTmux runs the real CLI on a pseudo-terminal made by
// script(1), as a plain terminal would; killed at cleanup.
func (r *keepRig) startOutsideTmux(prompt string) {
	r.t.Helper()
	plainTerminal(r.t, r.bin+" -- '"+prompt+"'", r.work, claudetest.Env(r.home, r.api.URL()))
}

// plainTerminal runs the shell command line on a pseudo-terminal made by
// script(1), in dir with env (and PATH, TERM), as an operator's plain
// terminal would: no tmux; its process group is killed at cleanup.
func plainTerminal(t *testing.T, line, dir string, env map[string]string) {
	t.Helper()
	cmd := exec.Command("script", "-qfec", line, "/dev/null")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
}

func (r *keepRig) external() []conv.ExternalSession {
	r.t.Helper()
	return r.lab.external()
}

// external lists the sessions lab offers to attach.
func (l *labServer) external() []conv.ExternalSession {
	l.t.Helper()
	var list httpapi.ExternalList
	if code := l.call("GET", "/api/v1/external-sessions", nil, &list); code != 200 {
		l.t.Fatalf("external sessions: %d", code)
	}
	return list.Sessions
}

// A CLI the operator started in their own tmux is listed, attached,
// answered and replied to through lab, then detached while it keeps
// running; one started outside tmux can only be followed.
func TestAttachToSessionsStartedOutsideLab(t *testing.T) {
	r := startKeepRig(t)
	ctx := context.Background()
	// A lab run of its own must not be offered.
	var own conv.Run
	r.lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: r.work, Prompt: "lab:text lab's own run"}, &own)
	r.request("lab's own run")
	// The operator's tmux: a shell in the pane, the CLI its child.
	if err := r.ops.NewSession(ctx, tmux.SessionOptions{Name: "ops", Dir: r.work, Width: 120, Height: 45, Env: claudetest.Env(r.home, r.api.URL()),
		Argv: []string{"/bin/sh", "-c", r.bin + " -- 'lab:single pick for me'; exec sleep 600"}}); err != nil {
		t.Fatal(err)
	}
	r.startOutsideTmux("lab:text a plain terminal")
	r.request("pick for me")
	r.request("a plain terminal")

	var inTmux, outside conv.ExternalSession
	claudetest.Poll(t, 60*time.Second, "both terminal sessions listed", func() bool {
		inTmux, outside = conv.ExternalSession{}, conv.ExternalSession{}
		for _, e := range r.external() {
			if e.SessionID == own.SessionID && own.SessionID != "" || e.Tmux != nil && e.Tmux.Session != "ops" {
				t.Fatalf("lab's own run is offered for attaching: %+v", e)
			}
			if e.Tmux != nil {
				inTmux = e
			} else {
				outside = e
			}
		}
		// The title comes from the transcript, which the CLI writes a
		// moment after it sent the prompt.
		return inTmux.PID != 0 && outside.PID != 0 && inTmux.Title != ""
	})
	if inTmux.ReadOnly != "" || inTmux.Tmux.Socket != r.ops.Socket() || inTmux.Cwd != r.work || inTmux.Title != "lab:single pick for me" {
		t.Fatalf("tmux session listed as %+v; want it reachable on the test's socket %s", inTmux, r.ops.Socket())
	}
	if !strings.Contains(outside.ReadOnly, "does not run in tmux") {
		t.Fatalf("plain terminal session listed as %+v; want it read-only, saying why", outside)
	}

	var run conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"pid": inTmux.PID}, &run); code != 201 {
		t.Fatalf("attach: %d\n%s", code, r.lab.log)
	}
	if run.Attached == nil || run.Attached.PID != inTmux.PID || run.Attached.Pane != "ops:"+inTmux.Tmux.Pane || run.Attached.ReadOnly != "" || run.SessionID != inTmux.SessionID {
		t.Fatalf("attached run %+v; want the process, its pane, writable", run)
	}
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"pid": inTmux.PID}, &conv.Run{}); code != 409 {
		t.Fatalf("attaching twice: got %d; want 409", code)
	}
	// Its question comes from the transcript and the pane (no hooks).
	p := r.lab.waitPage(run.ID, "the attached session's pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	if p.State != conv.StateQuestion || !p.PendingDialog.Answerable || p.PendingDialog.Questions[0].Question != "Which database should we use?" {
		t.Fatalf("page state %s dialog %+v; want the scripted question, answerable", p.State, p.PendingDialog)
	}
	toolID := p.PendingDialog.ToolID
	if code := r.lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", conv.Answer{ToolID: toolID, Answers: []conv.QuestionAnswer{{Chosen: []int{1}}}}, nil); code != 204 {
		t.Fatalf("answer: %d\n%s", code, r.lab.log)
	}
	p = r.lab.waitPage(run.ID, "the answered question", func(p conv.Page) bool {
		ds := dialogMessages(p, toolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil && p.PendingDialog == nil
	})
	if out := dialogMessages(p, toolID)[0].Dialog.Outcome; len(out.Results) != 1 || len(out.Results[0].Chosen) != 1 || out.Results[0].Chosen[0] != "PostgreSQL" {
		t.Fatalf("recorded outcome %+v; want PostgreSQL", out)
	}
	r.assistantSaid(run.ID, "PostgreSQL")
	r.reply(run.ID, "lab:text hello from the phone")
	r.request("hello from the phone")
	r.assistantSaid(run.ID, "You said: lab:text hello from the phone")

	// Stop on an attached run detaches: the process keeps running.
	if code := r.lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop (detach): %d", code)
	}
	var got conv.Run
	var list struct{ Runs []conv.Run }
	r.lab.call("GET", "/api/v1/runs", nil, &list)
	for _, x := range list.Runs {
		if x.ID == run.ID {
			got = x
		}
	}
	if got.State != conv.StateEnded || got.EndReason != "detached" {
		t.Fatalf("detached run %+v; want ended, reason detached", got)
	}
	time.Sleep(3 * time.Second) // past a sweep: nothing may end it late
	if err := r.ops.PaneHosts(ctx, inTmux.Tmux.Pane, inTmux.PID); err != nil {
		t.Fatalf("after detaching, the CLI no longer runs in its pane: %v", err)
	}
	claudetest.Poll(t, 30*time.Second, "the detached session offered again", func() bool {
		for _, e := range r.external() {
			if e.PID == inTmux.PID {
				return e.RunID == ""
			}
		}
		return false
	})

	// Outside tmux: followed read-only; typing is refused, saying why.
	var ro conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"pid": outside.PID}, &ro); code != 201 {
		t.Fatalf("attach read-only: %d", code)
	}
	if ro.Attached == nil || !strings.Contains(ro.Attached.ReadOnly, "does not run in tmux") {
		t.Fatalf("read-only run %+v; want the reason", ro)
	}
	r.assistantSaid(ro.ID, "You said: lab:text a plain terminal")
	var e struct{ Error string }
	if code := r.lab.call("POST", "/api/v1/runs/"+ro.ID+"/reply", map[string]string{"text": "hi"}, &e); code != 409 {
		t.Fatalf("reply to a read-only session: got %d; want 409", code)
	}
	if code := r.lab.call("POST", "/api/v1/runs/"+ro.ID+"/interrupt", nil, nil); code != 409 {
		t.Fatalf("interrupt of a read-only session: got %d; want 409", code)
	}
	r.lab.call("POST", "/api/v1/runs/"+ro.ID+"/stop", nil, nil)
	if err := syscall.Kill(outside.PID, 0); err != nil {
		t.Fatalf("detaching the read-only run ended its process: %v", err)
	}
}

// A permission prompt of a CLI lab did not start has no hook to announce
// it: the transcript's running call and the pane make the dialog, and the
// answer lands through the pane like any other.
func TestAttachedPermissionPrompt(t *testing.T) {
	r := startKeepRig(t)
	ctx := context.Background()
	if err := r.ops.NewSession(ctx, tmux.SessionOptions{Name: "ops", Dir: r.work, Width: 120, Height: 45, Env: claudetest.Env(r.home, r.api.URL()),
		Argv: []string{"/bin/sh", "-c", r.bin + " --permission-mode manual -- 'lab:permission make a file'; exec sleep 600"}}); err != nil {
		t.Fatal(err)
	}
	r.request("make a file")
	var ext conv.ExternalSession
	claudetest.Poll(t, 60*time.Second, "the terminal session listed", func() bool {
		for _, e := range r.external() {
			if e.Tmux != nil {
				ext = e
			}
		}
		return ext.PID != 0
	})
	var run conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"pid": ext.PID}, &run); code != 201 {
		t.Fatalf("attach: %d\n%s", code, r.lab.log)
	}
	p := r.lab.waitPage(run.ID, "the permission prompt", func(p conv.Page) bool {
		d := p.PendingDialog
		return d != nil && d.Kind == conv.DialogPermission && d.Permission != nil && len(d.Permission.Options) > 0
	})
	d := p.PendingDialog
	if p.State != conv.StateQuestion || d.Permission.Command != "touch lab-permission-probe.txt && echo created" || d.Permission.Options[0].Role != conv.RoleAllowOnce {
		t.Fatalf("page state %s dialog %+v; want the Bash prompt", p.State, d.Permission)
	}
	zero := 0
	if code := r.lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", conv.Answer{ToolID: d.ToolID, Option: &zero}, nil); code != 204 {
		t.Fatalf("answer: %d\n%s", code, r.lab.log)
	}
	r.lab.waitPage(run.ID, "the allowed call's chip", func(p conv.Page) bool {
		for _, m := range p.Messages {
			if m.Kind == conv.KindTool && m.Tool.ID == d.ToolID && m.Tool.Decision != nil && m.Tool.Decision.Allowed {
				return p.PendingDialog == nil
			}
		}
		return false
	})
	if _, err := os.Stat(filepath.Join(r.work, "lab-permission-probe.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	r.lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil)
}
