package codextest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/conv"
	"lab/internal/fakecodexapi"
)

// The real-CLI matrix: each case starts the pinned Codex CLI on a scripted
// scenario, answers what it asks with the adapter's own recipes (read off
// the pane, played key by key with checkpoints, as lab's chat plays them),
// and asserts both what the CLI recorded in its rollout and the chat the
// fold makes of it.

const matrixTimeout = 60 * time.Second

// run is one CLI under test with its hook spool.
type run struct {
	*Rig
	t      *testing.T
	target string
	spool  *codex.Spool
	opts   codex.SpawnOptions
}

// startRun spawns the CLI with its hooks spooling; in Plan mode the prompt
// is typed after switching modes.
func startRun(t *testing.T, prompt string, plan bool) *run {
	t.Helper()
	t.Parallel()
	r := &run{Rig: NewRig(t, fakecodexapi.Options{ChunkDelay: 100 * time.Millisecond, SlowChunks: 400}), t: t, target: "m"}
	spoolDir := filepath.Join(ShortTempDir(t, "labrun"), "spool")
	if err := os.MkdirAll(spoolDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hooks, err := codex.HookArgs(spoolDir)
	if err != nil {
		t.Fatal(err)
	}
	r.spool = codex.OpenSpool(spoolDir)
	r.opts = codex.SpawnOptions{Hooks: hooks, Prompt: prompt}
	if plan {
		r.opts.Prompt = ""
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pane at failure:\n%s", r.Pane(r.target))
		}
	})
	r.Spawn(r.target, r.opts)
	if plan {
		r.WaitPane(r.target, "Ask Codex to do anything", matrixTimeout)
		EnterPlanMode(t, r.Rig, r.target)
		r.Reply(r.target, prompt, matrixTimeout)
	}
	return r
}

// rollout returns the path the SessionStart hook names.
func (r *run) rollout() string {
	r.t.Helper()
	var path string
	Poll(r.t, matrixTimeout, "SessionStart in the spool", func() bool {
		st, _ := r.spool.Refresh()
		path = st.TranscriptPath
		return path != ""
	})
	return path
}

// fold folds the rollout once cond accepts it.
func (r *run) fold(what string, cond func(*codex.Fold) bool) *codex.Fold {
	r.t.Helper()
	path := r.rollout()
	var f *codex.Fold
	Poll(r.t, matrixTimeout, what, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		f = codex.NewFold()
		f.Write(b)
		return cond(f)
	})
	if f.SkippedLines() != 0 {
		r.t.Errorf("the fold skipped %d lines of the real rollout", f.SkippedLines())
	}
	return f
}

func msgs(f *codex.Fold) []conv.Message {
	m, _ := f.Messages(0, 0, 0)
	return m
}

// last returns the newest message of kind k, or nil.
func last(f *codex.Fold, k conv.Kind) *conv.Message {
	m := msgs(f)
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].Kind == k {
			return &m[i]
		}
	}
	return nil
}

// assistantSaid reports whether the newest assistant text contains s.
func assistantSaid(s string) func(*codex.Fold) bool {
	return func(f *codex.Fold) bool {
		m := last(f, conv.KindText)
		return m != nil && m.Role == conv.RoleAssistant && strings.Contains(m.Text, s) && f.State() == conv.StateNeedsInput
	}
}

func TestMatrixPlainTurn(t *testing.T) {
	r := startRun(t, "lab:text a plain turn", false)
	f := r.fold("the reply", assistantSaid("You said: lab:text a plain turn"))
	m := msgs(f)
	if len(m) != 2 || m[0].Role != conv.RoleUser || m[0].Text != "lab:text a plain turn" || f.PendingDialog() != nil {
		t.Fatalf("chat %+v; want the prompt and the reply only", m)
	}
	if st, _ := r.spool.Refresh(); st.SessionID != f.SessionID() || st.LastStop == nil {
		t.Fatalf("spool %+v; want the rollout's session and a Stop", st)
	}
}

// approval waits for the approval prompt the spool serves as a pending
// permission dialog, dresses it from the pane, and checks it is about the
// rollout's running call.
func (r *run) approval() (*conv.Dialog, string) {
	r.t.Helper()
	var d *conv.Dialog
	Poll(r.t, matrixTimeout, "the approval in the spool", func() bool {
		st, _ := r.spool.Read()
		for _, p := range st.Pending {
			if p.Kind == conv.DialogPermission {
				d = p
			}
		}
		return d != nil
	})
	drv := codex.New("").NewDriver(Version)
	pane := r.WaitPaneFunc(r.target, "the approval prompt", matrixTimeout, func(s string) bool { return drv.Dress(d, s) })
	if look := drv.Look(pane); look.Kind != agent.LookPermission {
		r.t.Fatalf("Look = %+v; want the permission prompt", look)
	}
	f := r.fold("the call running", func(f *codex.Fold) bool { return f.Running() != nil })
	if run := f.Running(); run.ID != d.ToolID || f.State() != conv.StateWorking {
		r.t.Fatalf("the approval is for %q; the rollout's running call is %+v (state %s)", d.ToolID, run, f.State())
	}
	return d, pane
}

// answerApproval plays the recipe that picks role.
func (r *run) answerApproval(d *conv.Dialog, pane string, role conv.OptionRole) {
	r.t.Helper()
	o := -1
	for i, op := range d.Permission.Options {
		if op.Role == role {
			o = i
		}
	}
	steps, err := codex.New("").NewDriver(Version).Recipe(d, conv.Answer{ToolID: d.ToolID, Option: &o}, pane)
	if err != nil {
		r.t.Fatal(err)
	}
	r.Play(r.target, steps, matrixTimeout)
}

func TestMatrixCommandApprovalAllow(t *testing.T) {
	r := startRun(t, "lab:permission make a file", false)
	d, pane := r.approval()
	if p := d.Permission; p.Tool != codex.ToolExecCommand || p.Command != "touch lab-permission-probe.txt && echo created" || p.Description != fakecodexapi.PermissionJustification {
		t.Fatalf("approval %+v; want the command and the agent's reason", p)
	}
	r.answerApproval(d, pane, conv.RoleAllowOnce)
	f := r.fold("the echoed output", assistantSaid("tool output for exec_command"))
	tool := msgs(f)[2].Tool
	if tool == nil || tool.ID != d.ToolID || tool.Status != conv.ToolOK || tool.Output != "created\n" {
		t.Fatalf("tool %+v; want the command run, output created", tool)
	}
	if _, err := os.Stat(filepath.Join(r.Work, "lab-permission-probe.txt")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}
	if st, _ := r.spool.Read(); len(st.Pending) != 0 {
		t.Fatalf("the spool still serves %+v after the approval was answered", st.Pending)
	}
}

func TestMatrixCommandApprovalDeny(t *testing.T) {
	r := startRun(t, "lab:permission make a file", false)
	d, pane := r.approval()
	r.answerApproval(d, pane, conv.RoleDeny)
	// The denial interrupts the turn; what to do instead is a reply.
	r.fold("the turn interrupted", func(f *codex.Fold) bool { return f.State() == conv.StateNeedsInput })
	r.Reply(r.target, "lab:text use a temp dir instead", matrixTimeout)
	f := r.fold("the feedback answered", assistantSaid("You said: lab:text use a temp dir instead"))
	m := msgs(f)
	kinds := []string{}
	for _, x := range m {
		kinds = append(kinds, string(x.Kind))
	}
	if len(m) != 6 || m[2].Tool == nil || m[2].Tool.Status != conv.ToolError || !strings.Contains(m[2].Tool.Output, "aborted by user") ||
		m[3].Lifecycle == nil || m[3].Lifecycle.Text != "Interrupted" || m[4].Text != "lab:text use a temp dir instead" {
		t.Fatalf("chat %v %+v; want the call aborted, the interrupt, the feedback as the next prompt", kinds, m)
	}
	if _, err := os.Stat(filepath.Join(r.Work, "lab-permission-probe.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	// No hook closes a denied approval: the rollout's output retires it.
	if !f.Resolved(d.ToolID) {
		t.Fatal("the fold does not show the denied call resolved")
	}
	if err := r.spool.Retire(d.ToolID); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.spool.Read(); len(st.Pending) != 0 {
		t.Fatalf("the denied approval is still served after Retire: %+v", st.Pending)
	}
}

func TestMatrixFileEditApproval(t *testing.T) {
	r := startRun(t, "lab:edit add a file", false)
	d, pane := r.approval()
	p := d.Permission
	target := filepath.Join(r.Outside, fakecodexapi.EditFile)
	if p.Tool != codex.ToolApplyPatch || p.Path != target || p.Diff != "--- "+target+"\n+++ "+target+"\n@@ -0,0 +1,2 @@\n+hello from lab\n+a second line" {
		t.Fatalf("approval %+v; want the added file with its diff", p)
	}
	if len(p.Options) != 3 || p.Options[1].Role != conv.RoleAllowAlways || p.Options[1].Label != "Yes, and don't ask again for these files" {
		t.Fatalf("options %+v; want allow once, allow always for these files, deny", p.Options)
	}
	r.answerApproval(d, pane, conv.RoleAllowOnce)
	f := r.fold("the echoed output", assistantSaid("tool output for apply_patch"))
	tool := msgs(f)[2].Tool
	if tool == nil || tool.Status != conv.ToolOK || tool.Input != "Add "+target || !strings.HasPrefix(tool.Output, "Success.") {
		t.Fatalf("tool %+v; want the patch applied", tool)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "hello from lab\na second line\n" {
		t.Fatalf("the file holds %q, %v", b, err)
	}
}

// answerQuestion waits for the pending question, checks the spool and the
// rollout agree on it, and plays the recipe for a.
func (r *run) answerQuestion(answers ...conv.QuestionAnswer) (*conv.Dialog, conv.Answer) {
	r.t.Helper()
	f := r.fold("the pending question", func(f *codex.Fold) bool { return f.PendingDialog() != nil })
	d := f.PendingDialog()
	var side *conv.Dialog
	Poll(r.t, matrixTimeout, "the question in the spool", func() bool {
		st, _ := r.spool.Read()
		if len(st.Pending) == 1 {
			side = st.Pending[0]
		}
		return side != nil
	})
	if side.ToolID != d.ToolID || len(side.Questions) != len(d.Questions) {
		r.t.Fatalf("spool dialog %+v; rollout dialog %+v", side, d)
	}
	a := conv.Answer{ToolID: d.ToolID, Answers: answers}
	pane := r.WaitPaneFunc(r.target, "the question", matrixTimeout, func(s string) bool {
		return codex.ParseScreen(s).Kind == codex.ScreenQuestion
	})
	steps, err := codex.Recipe(d, a, pane)
	if err != nil {
		r.t.Fatal(err)
	}
	r.Play(r.target, steps, matrixTimeout)
	return d, a
}

// answered returns the dialog's outcome once the rollout records it, and
// checks it is what the answer meant.
func (r *run) answered(d *conv.Dialog, a conv.Answer) *conv.Outcome {
	r.t.Helper()
	f := r.fold("the answer recorded", func(f *codex.Fold) bool { return f.Resolved(d.ToolID) && f.State() == conv.StateNeedsInput })
	var got *conv.Outcome
	for _, m := range msgs(f) {
		if m.Dialog != nil && m.Dialog.ToolID == d.ToolID {
			got = m.Dialog.Outcome
		}
	}
	want := codex.IntendedOutcome(d, a)
	if string(mustJSON(r.t, got)) != string(mustJSON(r.t, want)) {
		r.t.Fatalf("recorded outcome %s; lab meant %s", mustJSON(r.t, got), mustJSON(r.t, want))
	}
	return got
}

func TestMatrixQuestionOption(t *testing.T) {
	r := startRun(t, "lab:single which database?", false)
	d, a := r.answerQuestion(conv.QuestionAnswer{Chosen: []int{1}})
	o := r.answered(d, a)
	if len(o.Results) != 1 || strings.Join(o.Results[0].Chosen, ",") != "PostgreSQL" || o.Results[0].OtherText != "" {
		t.Fatalf("outcome %+v; want PostgreSQL", o)
	}
}

func TestMatrixQuestionNotes(t *testing.T) {
	r := startRun(t, "lab:form two questions", false)
	d, a := r.answerQuestion(conv.QuestionAnswer{Chosen: []int{1}, OtherText: "a darker blue"}, conv.QuestionAnswer{OtherText: "medium would be best"})
	o := r.answered(d, a)
	if o.Results[0].Chosen[0] != "Blue" || o.Results[0].OtherText != "a darker blue" || len(o.Results[1].Chosen) != 0 || o.Results[1].OtherText != "medium would be best" {
		t.Fatalf("outcome %+v; want Blue with notes, then notes alone", o)
	}
	req := r.WaitRequest(matrixTimeout, "the answer sent to the model", func(q fakecodexapi.Request) bool { return len(q.ToolOutputs) == 1 })
	if !strings.Contains(req.ToolOutputs[0].Output, `"user_note: medium would be best"`) {
		t.Fatalf("the model got %q", req.ToolOutputs[0].Output)
	}
}

// answerPlan waits for the plan and its picker and plays the recipe.
func (r *run) answerPlan(option int, feedback string) (*conv.Dialog, conv.Answer) {
	r.t.Helper()
	f := r.fold("the proposed plan", func(f *codex.Fold) bool { return f.PendingDialog() != nil })
	d := f.PendingDialog()
	if d.Kind != conv.DialogPlan || d.Plan != fakecodexapi.PlanMarkdown {
		r.t.Fatalf("pending %+v; want the plan", d)
	}
	drv := codex.New("").NewDriver(Version)
	pane := r.WaitPaneFunc(r.target, "the plan picker", matrixTimeout, func(s string) bool { return drv.Dress(d, s) })
	a := conv.Answer{ToolID: d.ToolID, Option: &option, Feedback: feedback}
	steps, err := drv.Recipe(d, a, pane)
	if err != nil {
		r.t.Fatal(err)
	}
	r.Play(r.target, steps, matrixTimeout)
	return d, a
}

func TestMatrixPlanImplement(t *testing.T) {
	r := startRun(t, "lab:plan add a greeting", true)
	d, a := r.answerPlan(0, "")
	r.fold("the implementation turn", assistantSaid("You said: Implement the plan."))
	if o := r.answered(d, a); !o.Approved {
		t.Fatalf("outcome %+v; want approved", o)
	}
	req := r.WaitRequest(matrixTimeout, "the implementation prompt", func(q fakecodexapi.Request) bool { return q.Prompt == "Implement the plan." })
	if req.PlanMode {
		t.Fatal("the implementation turn still ran in Plan mode")
	}
}

func TestMatrixPlanStay(t *testing.T) {
	r := startRun(t, "lab:plan add a greeting", true)
	d, a := r.answerPlan(2, "make it smaller")
	r.fold("the feedback turn", assistantSaid("You said: make it smaller"))
	if o := r.answered(d, a); o.Approved || o.Feedback != "make it smaller" {
		t.Fatalf("outcome %+v; want the feedback", o)
	}
	req := r.WaitRequest(matrixTimeout, "the feedback prompt", func(q fakecodexapi.Request) bool { return q.Prompt == "make it smaller" })
	if !req.PlanMode {
		t.Fatal("the feedback turn left Plan mode")
	}
}

func TestMatrixInterrupt(t *testing.T) {
	r := startRun(t, "lab:slow tell me a long story", false)
	r.WaitPane(r.target, "word3 ", matrixTimeout)
	r.Keys(r.target, codex.New("").NewDriver(Version).InterruptKey())
	f := r.fold("the interrupt", func(f *codex.Fold) bool { return last(f, conv.KindLifecycle) != nil })
	m := msgs(f)
	if len(m) != 2 || m[1].Lifecycle.Text != "Interrupted" || f.State() != conv.StateNeedsInput {
		t.Fatalf("chat %+v, state %s; want the prompt, then Interrupted (the CLI keeps no partial text)", m, f.State())
	}
}

func TestMatrixResume(t *testing.T) {
	r := startRun(t, "lab:text first", false)
	first := r.fold("the first turn", assistantSaid("You said: lab:text first"))
	if err := r.Tmux.KillSession(t.Context(), r.target); err != nil {
		t.Fatal(err)
	}
	r.opts.ResumeID, r.opts.Prompt = first.SessionID(), "lab:text after resume"
	r.Spawn(r.target, r.opts)
	f := r.fold("the resumed turn", assistantSaid("You said: lab:text after resume"))
	m := msgs(f)
	if len(m) != 4 || m[0].Text != "lab:text first" || m[2].Text != "lab:text after resume" || f.SessionID() != first.SessionID() {
		t.Fatalf("chat %+v in session %s; want both turns in %s", m, f.SessionID(), first.SessionID())
	}
	if len(r.Sessions()) != 1 {
		t.Fatalf("rollouts %v; want the one, appended to", r.Sessions())
	}
	if st, _ := r.spool.Refresh(); st.Source != "resume" || st.SessionID != first.SessionID() {
		t.Fatalf("spool %+v; want the resumed session", st)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
