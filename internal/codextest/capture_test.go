package codextest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/clitest"
	"lab/internal/codex"
	"lab/internal/fakecodexapi"
)

// capture regenerates internal/codex/testdata/captured: real rollouts,
// hook payloads and panes from the real CLI driven by hand.
//
//	go test ./internal/codextest -run TestCapture -capture -v
var capture = flag.Bool("capture", false, "re-capture the real-CLI fixtures under internal/codex/testdata")

// captureCase is one conversation to capture.
type captureCase struct {
	name   string
	plan   bool // enter Plan mode (shift+tab) before typing the prompt
	prompt string
	// picker, when set, is pane text to wait for before drive; the pane is
	// saved as <name>.pane.txt.
	picker string
	drive  func(c *captureRun)
	// done reports, from the rollout so far, that the capture is complete.
	done func(rollout string) bool
	// expect are substrings the rollout must contain: the facts the
	// fixture pins.
	expect []string
	// resume starts the CLI again on the same session with this prompt.
	resume string
	// streams says picker is text still streaming in: drive at once.
	streams bool
}

// captureRun is a capture in progress.
type captureRun struct {
	*Rig
	t      *testing.T
	target string
	panes  map[string]string // named snapshots, saved as <case>.<name>.pane.txt
}

func (c *captureRun) keys(keys ...string) { c.Keys(c.target, keys...) }
func (c *captureRun) paste(s string)      { c.Paste(c.target, s) }

// settled waits for the pane to show want and hold still.
func (c *captureRun) settled(want string) string {
	return c.WaitPaneSettled(c.target, want, 300*time.Millisecond, 60*time.Second)
}

// snap saves the pane once it shows want and holds still.
func (c *captureRun) snap(name, want string) { c.panes[name] = c.settled(want) }

// turnDone is the done check of a turn that ends normally.
var turnDone = clitest.Has(`"type":"task_complete"`)

// echoed ends when the scripted model's echo of a tool output is in.
func echoed(tool string) func(string) bool {
	return clitest.Has(`tool output for `+tool+`: `, `"type":"task_complete"`)
}

var captureCases = []captureCase{
	{name: "text", prompt: "lab:text hello", done: turnDone, expect: []string{`You said: lab:text hello`}},
	{name: "bash", prompt: "lab:bash run something", done: echoed("exec_command"), expect: []string{`lab-bash-ok`, `"name":"exec_command"`}},
	{name: "think", prompt: "lab:think about it", done: turnDone, expect: []string{`"type":"reasoning"`, `Thinking it over`}},
	{name: "todo", prompt: "lab:todo please", done: turnDone, expect: []string{`"name":"update_plan"`, `Plan updated`}},
	{
		name: "single_answered", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive:  func(c *captureRun) { c.keys("Down", "Enter") },
		done:   echoed("request_user_input"),
		expect: []string{`{\"answers\":{\"database\":{\"answers\":[\"PostgreSQL\"]}}}`, `"type":"verified_answer"`},
	},
	{
		name: "single_notes", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive: func(c *captureRun) {
			c.keys("Tab")
			c.snap("notes-open", "Add notes")
			c.paste("embedded is fine")
			c.snap("notes-typed", "embedded is fine")
			c.keys("Enter")
		},
		done:   echoed("request_user_input"),
		expect: []string{`[\"SQLite (Recommended)\",\"user_note: embedded is fine\"]`},
	},
	{
		name: "form_answered", prompt: "lab:form two questions", picker: "Which color do you prefer?",
		drive: func(c *captureRun) {
			c.keys("Down")
			c.snap("q1-row2", "Which color do you prefer?")
			c.keys("Enter")
			c.snap("q2", "Which size should we stock?")
			c.keys("Down", "Down", "Tab")
			c.paste("medium would be best")
			c.snap("q2-none-notes", "medium would be best")
			c.keys("Enter")
		},
		done:   echoed("request_user_input"),
		expect: []string{`\"color\":{\"answers\":[\"Blue\"]}`, `\"size\":{\"answers\":[\"None of the above\",\"user_note: medium would be best\"]}`},
	},
	{
		name: "single_declined", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`"type":"turn_aborted"`),
		expect: []string{`"output":"aborted by user`, `<turn_aborted>`},
	},
	{
		name: "single_pending", prompt: "lab:single which database?", picker: "Which database should we use?",
		done: clitest.Has(`"name":"request_user_input"`), expect: []string{`"name":"request_user_input"`},
	},
	{
		name: "permission_approved", prompt: "lab:permission make a file", picker: "Would you like to run the following command?",
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   echoed("exec_command"),
		expect: []string{`"sandbox_permissions\":\"require_escalated\"`, `Output:\ncreated`},
	},
	{
		name: "permission_denied", prompt: "lab:permission make a file", picker: "Would you like to run the following command?",
		drive: func(c *captureRun) {
			c.keys("Down", "Down")
			c.snap("row3", "No, and tell Codex")
			c.keys("Enter")
		},
		done:   clitest.Has(`"type":"turn_aborted"`),
		expect: []string{`aborted by user"`},
	},
	{
		name: "permission_pending", prompt: "lab:permission make a file", picker: "Would you like to run the following command?",
		done: clitest.Has(`"name":"exec_command"`), expect: []string{`"name":"exec_command"`},
	},
	{
		name: "edit_approved", prompt: "lab:edit add a file", picker: "Would you like to make the following edits?",
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   echoed("apply_patch"),
		expect: []string{`"type":"custom_tool_call_output"`, `*** Add File: /tmp/lab/lab-edit-probe.txt`},
	},
	{
		name: "edit_denied", prompt: "lab:edit add a file", picker: "Would you like to make the following edits?",
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`"type":"turn_aborted"`),
		expect: []string{`"type":"custom_tool_call_output"`, `aborted by user`},
	},
	{
		name: "plan_approved", plan: true, prompt: "lab:plan add a greeting", picker: "Implement this plan?",
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   clitest.Has(`You said: Implement the plan.`, `"collaboration_mode_kind":"default"`),
		expect: []string{`<proposed_plan>`, `"collaboration_mode_kind":"plan"`},
	},
	{
		name: "plan_stay", plan: true, prompt: "lab:plan add a greeting", picker: "Implement this plan?",
		drive: func(c *captureRun) {
			c.keys("Down", "Down")
			c.snap("row3", "No, stay in Plan mode")
			c.keys("Enter")
			c.Reply(c.target, "make it smaller", 60*time.Second)
		},
		done:   clitest.Has(`You said: make it smaller`),
		expect: []string{`<proposed_plan>`},
	},
	{
		name: "plan_pending", plan: true, prompt: "lab:plan add a greeting", picker: "Implement this plan?",
		done: clitest.Has(`<proposed_plan>`, `"type":"task_complete"`), expect: []string{`<proposed_plan>`},
	},
	{
		name: "interrupted", prompt: "lab:slow tell me a long story", picker: "word3 ", streams: true,
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`"type":"turn_aborted"`),
		expect: []string{`"reason":"interrupted"`},
	},
	{
		name: "resumed", prompt: "lab:text first", resume: "lab:text after resume",
		done:   clitest.Has(`You said: lab:text after resume`, `"type":"task_complete"`),
		expect: []string{`You said: lab:text first`},
	},
}

func TestCapture(t *testing.T) {
	if !*capture {
		t.Skip("fixture generator; run with -capture to re-capture internal/codex/testdata/captured")
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "internal", "codex", "testdata", "captured")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cc := range captureCases {
		t.Run(cc.name, func(t *testing.T) {
			t.Parallel()
			captureOne(t, cc, out)
		})
	}
}

func captureOne(t *testing.T, cc captureCase, out string) {
	r := NewRig(t, fakecodexapi.Options{ChunkDelay: 150 * time.Millisecond, SlowChunks: 200})
	runDir := ShortTempDir(t, "labrun")
	spoolDir := filepath.Join(runDir, "spool")
	if err := os.MkdirAll(spoolDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hooks, err := codex.HookArgs(spoolDir)
	if err != nil {
		t.Fatal(err)
	}
	c := &captureRun{Rig: r, t: t, target: "cap", panes: map[string]string{}}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pane at failure:\n%s", r.Pane(c.target))
		}
	})
	o := codex.SpawnOptions{Hooks: hooks, Prompt: cc.prompt}
	if cc.plan {
		o.Prompt = ""
	}
	r.Spawn(c.target, o)
	if cc.plan {
		// A fresh home opens on an animated welcome screen: wait for the
		// box, not for a still pane.
		r.WaitPane(c.target, "Ask Codex to do anything", 60*time.Second)
		EnterPlanMode(t, r, c.target)
		c.Reply(c.target, cc.prompt, 60*time.Second)
	}
	spool := codex.OpenSpool(spoolDir)
	rollout := clitest.SessionFile(t, func() string {
		st, _ := spool.Refresh()
		return st.TranscriptPath
	})
	var pane string
	switch {
	case cc.streams:
		// Streaming text changes the pane too often to ever hold still.
		pane = r.WaitPane(c.target, cc.picker, 60*time.Second)
	case cc.picker != "":
		pane = r.WaitPaneSettled(c.target, cc.picker, 500*time.Millisecond, 60*time.Second)
	}
	if cc.drive != nil {
		cc.drive(c)
	}
	if cc.resume != "" {
		Poll(t, 60*time.Second, "the first turn", func() bool {
			body, _ := os.ReadFile(rollout)
			return turnDone(string(body))
		})
		r.Tmux.KillSession(t.Context(), c.target)
		st, _ := spool.Refresh()
		o.ResumeID, o.Prompt = st.SessionID, cc.resume
		r.Spawn(c.target, o)
	}
	body := clitest.FinishFile(t, rollout, cc.name+" to finish in the rollout", cc.done)
	st, err := spool.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	norm := normalizer(r, runDir)
	names := clitest.Capture{Name: cc.name, File: "rollout", Body: body, Pane: pane, Expect: cc.expect, SpoolDir: spoolDir, Norm: norm}.Save(t, out)
	for name, p := range c.panes {
		clitest.WriteText(t, filepath.Join(out, cc.name+"."+name+".pane.txt"), norm(p))
	}
	t.Logf("%s: %d rollout bytes, %d hook payloads, session %s", cc.name, len(body), len(names), st.SessionID)
}

// normalizer replaces the random temp paths of a capture with fixed ones
// of the same shape, so re-captures diff cleanly. Ids and timestamps stay
// as the CLI wrote them.
func normalizer(r *Rig, runDir string) func(string) string {
	rep := strings.NewReplacer(
		r.Outside, "/tmp/lab",
		r.CodexHome, "/tmp/lab-home/codex",
		r.Home, "/tmp/lab-home/home",
		runDir, "/tmp/lab-run",
		r.API.URL(), "http://127.0.0.1:8765",
	)
	return rep.Replace
}
