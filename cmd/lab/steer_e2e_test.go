package main

import (
	"bufio"
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

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/clitest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
	"lab/internal/httpapi"
	"lab/internal/tmux"
)

// Steering runs between turns through lab's real server: slash commands
// and mode and model switches on the real CLIs, against the demo's
// scripted models, whose recorded requests say what the CLI did.

// post sends body and returns the status and the error message, if any.
func (l *labServer) post(path string, body any) (int, string) {
	l.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", l.base+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+l.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct{ Error string }
	_ = json.Unmarshal(raw, &e)
	return resp.StatusCode, e.Error
}

// mustPost posts and wants 204.
func (l *labServer) mustPost(path string, body any) {
	l.t.Helper()
	if code, msg := l.post(path, body); code != 204 {
		l.t.Fatalf("POST %s %+v: %d %s\npane:\n%s", path, body, code, msg, l.paneOf(path))
	}
}

// commands lists the run's slash commands by name.
func (l *labServer) commands(runID string) map[string]conv.Command {
	l.t.Helper()
	var list httpapi.CommandList
	if code := l.call("GET", "/api/v1/runs/"+runID+"/commands", nil, &list); code != 200 {
		l.t.Fatalf("commands: %d", code)
	}
	out := map[string]conv.Command{}
	for _, c := range list.Commands {
		out[c.Name] = c
	}
	return out
}

// pane is the run's pane now.
func (l *labServer) pane(runID string) string {
	out, _ := tmux.New(filepath.Join(l.state, "tmux.sock")).Capture(context.Background(), "=lab-"+runID+":")
	return out
}

// refusesCommandWhileDialog asks the agent a question, checks that a
// command sent while it waits is refused (409) with nothing typed or sent
// to the model, then answers it and waits for the turn to end. The pane
// and the model's request count are compared once both held still for
// half a second: a dialog that just showed may still be drawing, a turn's
// last request still arriving.
func (l *labServer) refusesCommandWhileDialog(t *testing.T, runID string, requests func() int) {
	t.Helper()
	path := "/api/v1/runs/" + runID + "/command"
	l.reply(runID, "lab:single pick one")
	p := l.waitPage(runID, "a pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	screen, n, since := l.pane(runID), requests(), time.Now()
	claudetest.Poll(t, 30*time.Second, "a still pane", func() bool {
		s, c := l.pane(runID), requests()
		if s != screen || c != n {
			screen, n, since = s, c, time.Now()
		}
		return time.Since(since) >= 500*time.Millisecond
	})
	if code, msg := l.post(path, conv.CommandRequest{Name: "compact"}); code != 409 || !strings.Contains(msg, "dialog is waiting") {
		t.Errorf("/compact with a dialog waiting: %d %q; want 409", code, msg)
	}
	if after, c := l.pane(runID), requests(); after != screen || c != n {
		t.Fatalf("a refused command changed the pane or reached the model (%d requests, %d before); before:\n%s\nafter:\n%s", c, n, screen, after)
	}
	l.answer(runID, conv.Answer{ToolID: p.PendingDialog.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}})
	l.waitPage(runID, "the answer's turn", func(p conv.Page) bool { return p.State == conv.StateNeedsInput && p.PendingDialog == nil })
}

// hasText reports whether the page holds a message of kind with text
// containing s.
func hasText(p conv.Page, kind conv.Kind, s string) bool {
	for _, m := range p.Messages {
		text := m.Text
		if m.Lifecycle != nil {
			text = m.Lifecycle.Text
		}
		if m.Kind == kind && strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// idle waits until the run waits for input with s as the newest answer.
func (l *labServer) idle(runID, s string) conv.Page {
	l.t.Helper()
	return l.waitPage(runID, "the answer "+s, func(p conv.Page) bool {
		return p.State == conv.StateNeedsInput && strings.Contains(lastAssistant(p), s)
	})
}

// TestServeSlashCommands: a Claude Code run lists its CLI's commands with
// the operator's and the project's own; a refused one and one missing its
// argument type nothing; a project command runs with its argument;
// /compact is sent to the model as the CLI's compaction request, shows
// working while it runs and its result in the chat, and the chat goes on;
// a command while a dialog waits is refused with nothing typed; /clear
// starts a new session that the same run follows, where the next reply
// lands.
func TestServeSlashCommands(t *testing.T) {
	lab := startLab(t)
	home := filepath.Join(lab.state, "home")
	work := t.TempDir()
	clitest.WriteText(t, filepath.Join(home, ".claude", "commands", "hello.md"), "---\ndescription: Say hello from the operator\n---\nSay hello\n")
	clitest.WriteText(t, filepath.Join(work, ".claude", "commands", "probe.md"), "---\ndescription: Probe the agent\nargument-hint: <words>\n---\nReply with lab-probe-ok and the words $ARGUMENTS\n")
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: work, Prompt: "lab:text first"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}
	lab.idle(run.ID, "You said: lab:text first")
	path := "/api/v1/runs/" + run.ID + "/command"
	dumpOnFailure(t, lab, run.ID)

	cmds := lab.commands(run.ID)
	for name, want := range map[string]conv.Command{
		"compact": {Source: conv.SourceBuiltin, Args: conv.ArgsOptional},
		"clear":   {Source: conv.SourceBuiltin, Args: conv.ArgsNone, NewSession: true},
		"model":   {Source: conv.SourceBuiltin, Args: conv.ArgsRequired},
		"probe":   {Source: conv.SourceProject, Args: conv.ArgsOptional, ArgsHint: "<words>"},
		"hello":   {Source: conv.SourceUser, Args: conv.ArgsOptional},
	} {
		c := cmds[name]
		if c.Source != want.Source || c.Args != want.Args || c.NewSession != want.NewSession || c.Refused != "" || (want.ArgsHint != "" && c.ArgsHint != want.ArgsHint) {
			t.Errorf("/%s listed as %+v; want %+v", name, c, want)
		}
	}
	if c := cmds["config"]; c.Refused == "" {
		t.Errorf("/config listed as %+v; want it refused (it opens a screen)", c)
	}

	// Refused before any key: the prompt stays empty.
	if code, msg := lab.post(path, conv.CommandRequest{Name: "config"}); code != 409 || !strings.Contains(msg, "lab does not send /config") {
		t.Errorf("/config: %d %q; want 409 saying why", code, msg)
	}
	if code, msg := lab.post(path, conv.CommandRequest{Name: "model"}); code != 400 || !strings.Contains(msg, "needs text after it") {
		t.Errorf("/model alone: %d %q; want 400 asking for the model", code, msg)
	}
	if code, _ := lab.post(path, conv.CommandRequest{Name: "probe", Args: "two\nlines"}); code != 400 {
		t.Errorf("a command with a line break: %d; want 400", code)
	}
	if b, ok := claude.ParsePrompt(lab.pane(run.ID)); !ok || !b.Empty() {
		t.Fatalf("prompt %+v (shown %v) after refused commands; want it empty", b, ok)
	}

	// A project command with its argument: the model gets its body.
	lab.mustPost(path, conv.CommandRequest{Name: "probe", Args: "alpha beta"})
	p := lab.idle(run.ID, "lab-probe-ok and the words alpha beta")
	if !hasText(p, conv.KindText, "/probe alpha beta") {
		t.Errorf("chat %+v; want the command as the operator's message", p.Messages)
	}

	// /compact: the compaction request reaches the model, the chat says
	// the run works on it, then that the conversation was compacted.
	api := lab.claudeAPI()
	lab.mustPost(path, conv.CommandRequest{Name: "compact"})
	working := lab.waitPage(run.ID, "the compaction in progress", func(p conv.Page) bool {
		return p.State == conv.StateWorking && p.Progress != nil && p.Progress.Command == "/compact"
	})
	if working.Progress.Since.IsZero() {
		t.Errorf("progress %+v; want when the compaction began", working.Progress)
	}
	claudetest.Poll(t, 30*time.Second, "the compaction request", func() bool {
		for _, r := range api.Requests() {
			if r.Scenario == fakeclaudeapi.ScenarioCompact {
				return true
			}
		}
		return false
	})
	p = lab.waitPage(run.ID, "the compaction's result", func(p conv.Page) bool {
		return hasText(p, conv.KindLifecycle, "Conversation compacted") && p.State != conv.StateWorking
	})
	if !hasText(p, conv.KindText, "/compact") {
		t.Errorf("chat %+v; want /compact as the operator's message", p.Messages)
	}
	lab.reply(run.ID, "lab:text after the compaction")
	lab.idle(run.ID, "lab:text after the compaction") // the CLI sends the compaction's records with it

	// Slash text that names no command is a message; a reply naming a
	// command is refused (the CLI would run it), nothing typed.
	lab.reply(run.ID, "/usr/bin is a folder")
	lab.idle(run.ID, "/usr/bin is a folder")
	if code, msg := lab.post("/api/v1/runs/"+run.ID+"/reply", map[string]string{"text": "/compact is a word"}); code != 409 || !strings.Contains(msg, "runs a message that starts with /compact") {
		t.Errorf("a reply naming a command: %d %q; want 409 saying the CLI would run it", code, msg)
	}

	// A dialog waits: a command is refused, nothing typed or sent.
	lab.refusesCommandWhileDialog(t, run.ID, func() int { return len(api.Requests()) })

	// /clear: the same run follows the new session, where a reply lands.
	old := lab.run(run.ID)
	lab.mustPost(path, conv.CommandRequest{Name: "clear"})
	claudetest.Poll(t, 60*time.Second, "the run on a new session", func() bool { return lab.run(run.ID).SessionID != old.SessionID })
	lab.reply(run.ID, "lab:text in the new session")
	p = lab.idle(run.ID, "lab:text in the new session")
	now := lab.run(run.ID)
	if now.TranscriptPath == old.TranscriptPath || hasText(p, conv.KindText, "lab:text first") || p.TranscriptID != now.SessionID {
		t.Fatalf("after /clear: run %+v, transcript %s, chat %+v; want the new session's chat only", now, p.TranscriptID, p.Messages)
	}
}

// TestServeSwitchModeAndModel: a Claude Code run switched from default to
// acceptEdits to plan with the CLI's own mode-cycle key, each confirmed on
// the footer and then in the transcript's record of the next prompt; the
// header's settings follow; a switch while the agent works is refused; a
// model switch reaches the next request.
func TestServeSwitchModeAndModel(t *testing.T) {
	lab := startLab(t)
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text first", PermissionMode: "default"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}
	p := lab.idle(run.ID, "You said: lab:text first")
	dumpOnFailure(t, lab, run.ID)
	if p.Settings == nil || p.Settings.Mode != "default" || !strings.HasPrefix(p.Settings.Model, "claude-") {
		t.Fatalf("settings %+v; want the transcript's default mode and model", p.Settings)
	}
	mode := "/api/v1/runs/" + run.ID + "/mode"
	for i, target := range []struct{ mode, footer string }{{"acceptEdits", "accept edits on"}, {"plan", "plan mode on"}} {
		lab.mustPost(mode, conv.ModeRequest{Mode: target.mode})
		if pane := lab.pane(run.ID); !strings.Contains(pane, target.footer) {
			t.Fatalf("after the switch to %s the footer shows:\n%s", target.mode, pane)
		}
		if s := lab.page(run.ID).Settings; s == nil || s.Mode != target.mode {
			t.Fatalf("settings %+v after the switch; want mode %s", s, target.mode)
		}
		prompt := "lab:text in " + target.mode
		lab.reply(run.ID, prompt)
		lab.idle(run.ID, "You said: "+prompt)
		if got := promptMode(t, lab.run(run.ID).TranscriptPath, prompt); got != target.mode {
			t.Fatalf("switch %d: the transcript records %q for %q; want %s", i, got, prompt, target.mode)
		}
		if s := lab.page(run.ID).Settings; s.Mode != target.mode {
			t.Fatalf("settings %+v from the transcript; want mode %s", s, target.mode)
		}
	}
	if code, msg := lab.post(mode, conv.ModeRequest{Mode: "warp"}); code != 400 || !strings.Contains(msg, "cannot switch to mode") {
		t.Errorf("unknown mode: %d %q; want 400", code, msg)
	}

	// While the agent works: refused, the footer untouched.
	lab.reply(run.ID, "lab:slow tell me a story")
	lab.waitPane(run.ID, "word3 ")
	if code, msg := lab.post(mode, conv.ModeRequest{Mode: "acceptEdits"}); code != 409 || !strings.Contains(msg, "working") {
		t.Errorf("a switch while working: %d %q; want 409", code, msg)
	}
	if code, _ := lab.post("/api/v1/runs/"+run.ID+"/model", conv.ModelRequest{Model: "haiku"}); code != 409 {
		t.Errorf("a model switch while working: %d; want 409", code)
	}
	if !strings.Contains(lab.pane(run.ID), "plan mode on") {
		t.Fatal("the refused switch changed the mode")
	}
	lab.mustPost("/api/v1/runs/"+run.ID+"/interrupt", nil)
	lab.waitPage(run.ID, "the interrupt", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })

	// The model: the picker's row, for this session; the next request
	// names it.
	api := lab.claudeAPI()
	lab.mustPost("/api/v1/runs/"+run.ID+"/model", conv.ModelRequest{Model: "sonnet"})
	if s := lab.page(run.ID).Settings; s.Model != "sonnet" {
		t.Fatalf("settings %+v after the model switch; want sonnet", s)
	}
	lab.reply(run.ID, "lab:text on another model")
	lab.idle(run.ID, "lab:text on another model") // the CLI sends the /model records with it
	var model string
	for _, r := range api.Requests() {
		if r.Kind == "messages" && strings.Contains(r.Prompt, "on another model") {
			model = r.Model
		}
	}
	if !strings.Contains(model, "sonnet") {
		t.Fatalf("the request after the switch asked for %q; want a sonnet model", model)
	}
	if s := lab.page(run.ID).Settings; s.Model != model {
		t.Fatalf("settings %+v; want the transcript's %s", s, model)
	}
}

// promptMode is the permissionMode the transcript's user line of prompt
// records, "" when none.
func promptMode(t *testing.T, path, prompt string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var line struct {
			Type           string
			PermissionMode string
			Message        struct{ Content json.RawMessage }
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "user" {
			continue
		}
		var s string
		if json.Unmarshal(line.Message.Content, &s) == nil && s == prompt {
			return line.PermissionMode
		}
	}
	return ""
}

// paneOf is the pane of the run a run path names, for failures.
func (l *labServer) paneOf(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) > 4 {
		return l.pane(parts[4])
	}
	return ""
}

// dumpOnFailure logs the run's pane and newest messages when the test
// fails.
func dumpOnFailure(t *testing.T, lab *labServer, runID string) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		p := lab.page(runID)
		for _, m := range p.Messages[max(0, len(p.Messages)-8):] {
			b, _ := json.Marshal(m)
			t.Logf("message %s", b)
		}
		t.Logf("state %s; pane:\n%s", p.State, lab.pane(runID))
	})
}

// TestServeCodexSlashCommands: a Codex run lists its CLI's commands;
// /compact sends the CLI's compaction request to the model and the chat
// shows the compaction and goes on; a command while a dialog waits is
// refused with nothing typed; /new starts a session the run follows once
// its first turn starts, where the reply lands.
func TestServeCodexSlashCommands(t *testing.T) {
	lab := startCodexLab(t)
	run := lab.startCodex(conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text first"})
	lab.idle(run.ID, "You said: lab:text first")
	dumpOnFailure(t, lab, run.ID)
	path := "/api/v1/runs/" + run.ID + "/command"
	cmds := lab.commands(run.ID)
	if c := cmds["compact"]; c.Source != conv.SourceBuiltin || c.Refused != "" {
		t.Errorf("/compact listed as %+v; want a built-in lab sends", c)
	}
	if c := cmds["new"]; !c.NewSession {
		t.Errorf("/new listed as %+v; want it to start a new session", c)
	}
	if c := cmds["review"]; c.Refused == "" {
		t.Errorf("/review listed as %+v; want it refused (it opens a picker)", c)
	}

	api := lab.codexAPI()
	lab.mustPost(path, conv.CommandRequest{Name: "compact"})
	claudetest.Poll(t, 60*time.Second, "the compaction request", func() bool {
		for _, r := range api.Requests() {
			if r.Kind == fakecodexapi.KindCompact {
				return true
			}
		}
		return false
	})
	lab.waitPage(run.ID, "the compaction in the chat", func(p conv.Page) bool {
		return hasText(p, conv.KindLifecycle, "Conversation compacted") && p.State == conv.StateNeedsInput
	})
	lab.reply(run.ID, "lab:text after the compaction")
	lab.idle(run.ID, "You said: lab:text after the compaction")

	// A reply that starts with a command's name is a message: the model
	// gets it, no compaction runs.
	compactions := len(api.Requests())
	lab.reply(run.ID, "/compact is a word here")
	lab.idle(run.ID, "You said: /compact is a word here")
	for _, r := range api.Requests()[compactions:] {
		if r.Kind == fakecodexapi.KindCompact {
			t.Fatal("a reply ran /compact")
		}
	}

	lab.refusesCommandWhileDialog(t, run.ID, func() int { return len(api.Requests()) })

	old := lab.run(run.ID)
	lab.mustPost(path, conv.CommandRequest{Name: "new"})
	lab.reply(run.ID, "lab:text in the new session")
	claudetest.Poll(t, 60*time.Second, "the run on a new session", func() bool { return lab.run(run.ID).SessionID != old.SessionID })
	p := lab.idle(run.ID, "You said: lab:text in the new session")
	if hasText(p, conv.KindText, "lab:text first") || lab.run(run.ID).TranscriptPath == old.TranscriptPath {
		t.Fatalf("after /new: chat %+v; want the new session's only", p.Messages)
	}
}

// TestServeCodexSwitchModeAndModel: a Codex run switched to Plan mode with
// its mode-cycle key (the footer says so, the rollout records it), then
// to the read-only sandbox with /permissions (recorded as a profile),
// each shown in the header's settings; a model switch reaches the next
// request.
func TestServeCodexSwitchModeAndModel(t *testing.T) {
	lab := startCodexLab(t)
	run := lab.startCodex(conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text first"})
	p := lab.idle(run.ID, "You said: lab:text first")
	dumpOnFailure(t, lab, run.ID)
	if p.Settings == nil || p.Settings.Mode != "workspace-write" || p.Settings.Model != "gpt-5.5" {
		t.Fatalf("settings %+v; want the rollout's workspace-write and gpt-5.5", p.Settings)
	}
	mode := "/api/v1/runs/" + run.ID + "/mode"
	lab.mustPost(mode, conv.ModeRequest{Mode: "plan"})
	if !strings.Contains(lab.pane(run.ID), "Plan mode") {
		t.Fatalf("the footer after the switch:\n%s", lab.pane(run.ID))
	}
	lab.waitPage(run.ID, "plan mode in the settings", func(p conv.Page) bool { return p.Settings != nil && p.Settings.Mode == "plan" })
	lab.mustPost(mode, conv.ModeRequest{Mode: "read-only"})
	if strings.Contains(lab.pane(run.ID), "Plan mode (shift+tab") {
		t.Fatalf("still in Plan mode after switching to read-only:\n%s", lab.pane(run.ID))
	}
	lab.waitPage(run.ID, "read-only in the settings", func(p conv.Page) bool { return p.Settings.Mode == "read-only" })
	if !rolloutHas(t, lab.run(run.ID).TranscriptPath, `"active_permission_profile":{"id":":read-only"}`) {
		t.Fatal("the rollout records no read-only profile")
	}
	if code, msg := lab.post(mode, conv.ModeRequest{Mode: "warp"}); code != 400 || !strings.Contains(msg, "cannot switch to mode") {
		t.Errorf("unknown mode: %d %q; want 400", code, msg)
	}

	api := lab.codexAPI()
	model := "/api/v1/runs/" + run.ID + "/model"
	if code, _ := lab.post(model, conv.ModelRequest{Model: "gpt-4"}); code != 400 {
		t.Errorf("a model Codex does not list: %d; want 400", code)
	}
	lab.mustPost(model, conv.ModelRequest{Model: "gpt-5.6-sol"})
	lab.waitPage(run.ID, "the model in the settings", func(p conv.Page) bool { return p.Settings.Model == "gpt-5.6-sol" })
	lab.reply(run.ID, "lab:text on another model")
	lab.idle(run.ID, "You said: lab:text on another model")
	var got string
	for _, r := range api.Requests() {
		if r.Kind == fakecodexapi.KindResponses && strings.Contains(r.Prompt, "on another model") {
			got = r.Model
		}
	}
	if got != "gpt-5.6-sol" {
		t.Fatalf("the request after the switch asked for %q; want gpt-5.6-sol", got)
	}
}

// rolloutHas reports whether the file holds s.
func rolloutHas(t *testing.T, path, s string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(b, []byte(s))
}
