package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/codex"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/fakecodexapi"
	"lab/internal/tmux"
)

// codexKeepRig is lab serving for real (not the demo) with the Codex
// provider on the CODEX_HOME of a real-CLI rig (codextest): the test
// plays the operator, who runs Codex in a tmux server of their own and on
// a plain terminal, both in the rig's network namespace with only
// loopback, talking to its scripted model.
type codexKeepRig struct {
	*codextest.Rig
	t   *testing.T
	lab *labServer
}

func startCodexKeepRig(t *testing.T) *codexKeepRig {
	t.Helper()
	r := &codexKeepRig{Rig: codextest.NewRig(t, fakecodexapi.Options{}), t: t}
	state := claudetest.ShortTempDir(t, "labcs")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	r.lab = serveLab(t, state, t.TempDir(), false, "--claude-bin", claudetest.CLI(t), "--codex-bin", r.Bin, "--codex-home", r.CodexHome)
	t.Cleanup(r.lab.stop)
	return r
}

// operatorArgv is the command line an operator types: the CLI in the
// rig's namespace, none of lab's session flags.
func (r *codexKeepRig) operatorArgv(prompt string) []string {
	return r.NS.Wrap([]string{r.Bin, "--sandbox", codex.SandboxWorkspaceWrite, "--ask-for-approval", "on-request", "--", prompt})
}

// startOutsideTmux runs the CLI on a plain terminal (plainTerminal).
func (r *codexKeepRig) startOutsideTmux(prompt string) {
	r.t.Helper()
	var quoted []string
	for _, a := range r.operatorArgv(prompt) {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	plainTerminal(r.t, strings.Join(quoted, " "), r.Work, r.Env)
}

// external lists the sessions lab offers to attach.
func (r *codexKeepRig) external() []conv.ExternalSession { return r.lab.external() }

// A Codex CLI the operator started in their own tmux is listed (found in
// /proc: its thread lock, its rollout, its TMUX variable), attached, its
// question and its command approval answered, replied to and
// interrupted through lab, then detached while it keeps running; one
// started on a plain terminal is listed and followed read-only.
func TestAttachCodexSessionsStartedOutsideLab(t *testing.T) {
	r := startCodexKeepRig(t)
	ctx := context.Background()
	if err := r.Tmux.NewSession(ctx, tmux.SessionOptions{Name: "ops", Dir: r.Work, Width: 120, Height: 45, Env: r.Env,
		Argv: r.operatorArgv("lab:single pick for me")}); err != nil {
		t.Fatal(err)
	}
	r.startOutsideTmux("lab:text a plain terminal")
	r.WaitRequest(60*time.Second, "the tmux session's prompt", func(q fakecodexapi.Request) bool { return strings.Contains(q.Prompt, "pick for me") })
	r.WaitRequest(60*time.Second, "the plain terminal's prompt", func(q fakecodexapi.Request) bool { return strings.Contains(q.Prompt, "a plain terminal") })

	var inTmux, outside conv.ExternalSession
	codextest.Poll(t, 60*time.Second, "both terminal sessions listed with their rollouts", func() bool {
		inTmux, outside = conv.ExternalSession{}, conv.ExternalSession{}
		for _, e := range r.external() {
			if e.Provider != "codex" {
				t.Fatalf("listed %+v; want only the Codex sessions", e)
			}
			if e.Tmux != nil {
				inTmux = e
			} else {
				outside = e
			}
		}
		return inTmux.Title != "" && outside.Title != ""
	})
	pane, _ := r.Tmux.PaneID(ctx, "ops")
	if inTmux.ReadOnly != "" || inTmux.Tmux.Socket != r.Tmux.Socket() || inTmux.Tmux.Pane != pane || inTmux.Tmux.Session != "ops" ||
		inTmux.Cwd != r.Work || inTmux.Title != "lab:single pick for me" || inTmux.Version != codextest.Version || !codex.ValidSessionID(inTmux.SessionID) ||
		!strings.Contains(inTmux.TranscriptPath, inTmux.SessionID) {
		t.Fatalf("tmux session listed as %+v; want it reachable in pane %s of the test's socket, with its rollout", inTmux, pane)
	}
	if !strings.Contains(outside.ReadOnly, "does not run in tmux") || outside.SessionID == inTmux.SessionID {
		t.Fatalf("plain terminal session listed as %+v; want it read-only, saying why", outside)
	}

	var run conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"provider": "codex", "pid": inTmux.PID}, &run); code != 201 {
		t.Fatalf("attach: %d\n%s", code, r.lab.log)
	}
	if run.Provider != "codex" || run.Attached == nil || run.Attached.PID != inTmux.PID || run.Attached.Pane != "ops:"+pane || run.SessionID != inTmux.SessionID {
		t.Fatalf("attached run %+v; want the process, its pane, writable", run)
	}

	// The question comes from the rollout (no hooks) and the pane.
	p := r.lab.waitPage(run.ID, "the attached session's pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	d := p.PendingDialog
	if p.State != conv.StateQuestion || d.Kind != conv.DialogQuestion || !d.Answerable || d.Questions[0].Question != "Which database should we use?" {
		t.Fatalf("page state %s dialog %+v; want the scripted question, answerable", p.State, d)
	}
	r.lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{1}}}})
	p = r.lab.waitPage(run.ID, "the recorded answer", func(p conv.Page) bool {
		ds := dialogMessages(p, d.ToolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil && strings.Contains(lastAssistant(p), "PostgreSQL") && p.State == conv.StateNeedsInput
	})
	if out := dialogMessages(p, d.ToolID)[0].Dialog.Outcome; out.Dismissed || out.Results[0].Chosen[0] != "PostgreSQL" {
		t.Fatalf("outcome %+v; want PostgreSQL chosen", out)
	}

	// A command approval no hook announced: the rollout's running call
	// and the pane make the dialog; allowed once, the command runs.
	r.lab.reply(run.ID, "lab:permission make the probe")
	p = r.lab.waitPage(run.ID, "a pending command approval", func(p conv.Page) bool {
		return p.PendingDialog != nil && p.PendingDialog.Kind == conv.DialogPermission && len(p.PendingDialog.Permission.Options) > 0
	})
	d = p.PendingDialog
	if !strings.Contains(d.Permission.Command, "lab-permission-probe.txt") || p.State != conv.StateQuestion {
		t.Fatalf("permission %+v in state %s; want the probe command", d.Permission, p.State)
	}
	allow := optionOf(t, d, conv.RoleAllowOnce)
	r.lab.answer(run.ID, conv.Answer{ToolID: d.ToolID, Option: &allow})
	p = r.lab.waitPage(run.ID, "the command's output", func(p conv.Page) bool {
		tc := toolMessage(p, d.ToolID)
		return tc != nil && tc.Status == conv.ToolOK && p.PendingDialog == nil && p.State == conv.StateNeedsInput
	})
	if _, err := os.Stat(filepath.Join(r.Work, "lab-permission-probe.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}

	// A slow answer, interrupted.
	r.lab.reply(run.ID, "lab:slow tell me a story")
	r.lab.waitPage(run.ID, "the story streaming", func(p conv.Page) bool { return p.State == conv.StateWorking })
	codextest.Poll(t, 60*time.Second, "the story on the pane", func() bool { return strings.Contains(r.Pane("=ops:"), "word3 ") })
	if code := r.lab.call("POST", "/api/v1/runs/"+run.ID+"/interrupt", nil, nil); code != 204 {
		t.Fatalf("interrupt: %d\n%s", code, r.lab.log)
	}
	r.lab.waitPage(run.ID, "the interrupt", func(p conv.Page) bool {
		n := len(p.Messages)
		return n > 0 && p.Messages[n-1].Kind == conv.KindLifecycle && p.State == conv.StateNeedsInput
	})

	// Detach: lab stops following; the CLI keeps running in its pane.
	if code := r.lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop (detach): %d", code)
	}
	if got := r.lab.run(run.ID); got.State != conv.StateEnded || got.EndReason != "detached" {
		t.Fatalf("detached run %+v; want ended, reason detached", got)
	}
	time.Sleep(3 * time.Second) // past a sweep: nothing may end it late
	if err := r.Tmux.PaneHosts(ctx, pane, inTmux.PID); err != nil {
		t.Fatalf("after detaching, the CLI no longer runs in its pane: %v", err)
	}
	codextest.Poll(t, 30*time.Second, "the detached session offered again", func() bool {
		for _, e := range r.external() {
			if e.PID == inTmux.PID {
				return e.RunID == ""
			}
		}
		return false
	})

	// Outside tmux: followed read-only; typing is refused, saying why.
	var ro conv.Run
	if code := r.lab.call("POST", "/api/v1/runs/attach", map[string]any{"provider": "codex", "pid": outside.PID}, &ro); code != 201 {
		t.Fatalf("attach read-only: %d", code)
	}
	if ro.Attached == nil || !strings.Contains(ro.Attached.ReadOnly, "does not run in tmux") {
		t.Fatalf("read-only run %+v; want the reason", ro)
	}
	r.lab.waitPage(ro.ID, "the plain terminal's answer", func(p conv.Page) bool {
		return strings.Contains(lastAssistant(p), "You said: lab:text a plain terminal")
	})
	for _, c := range []struct{ path, body string }{
		{"/reply", `{"text":"hi"}`}, {"/interrupt", ""}, {"/terminal/input", `{"keys":["Enter"]}`},
	} {
		var body any
		if c.body != "" {
			body = json.RawMessage(c.body)
		}
		if code := r.lab.call("POST", "/api/v1/runs/"+ro.ID+c.path, body, nil); code != 409 {
			t.Fatalf("%s on a read-only session: got %d; want 409", c.path, code)
		}
	}
	r.lab.call("POST", "/api/v1/runs/"+ro.ID+"/stop", nil, nil)
	if err := syscall.Kill(outside.PID, 0); err != nil {
		t.Fatalf("detaching the read-only run ended its process: %v", err)
	}
}
