package claudetest

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/clitest"
	"lab/internal/fakeclaudeapi"
)

// capture regenerates the captured/ and hooks/ folders of a fixture set
// (see CaptureDir): real transcripts, hook payloads and picker panes from
// the real CLI under test, driven by hand.
//
//	go test ./internal/claudetest -run TestCapture -capture -v
var capture = flag.Bool("capture", false, "re-capture the real-CLI fixtures into the CLI version's fixture set (or $LAB_CAPTURE_DIR)")

// captureCase is one conversation to capture.
type captureCase struct {
	name   string
	mode   string // --permission-mode, "" for the default
	prompt string
	// picker, when set, is pane text to wait for before drive; the pane
	// is saved as <name>.pane.txt.
	picker string
	drive  func(c *captureRun)
	// done reports, from the transcript so far, that the capture is
	// complete.
	done func(transcript string) bool
	// expect are substrings the transcript must contain: the facts the
	// fixture pins.
	expect []string
	// setup prepares the working directory before the CLI starts.
	setup func(work string) error
}

// captureRun is a capture in progress.
type captureRun struct {
	*Rig
	target string
}

func (c *captureRun) keys(keys ...string) { c.Keys(c.target, keys...) }
func (c *captureRun) paste(s string)      { c.Paste(c.target, s) }

// settled waits for the pane to show want and hold still.
func (c *captureRun) settled(want string) {
	c.WaitPaneSettled(c.target, want, 300*time.Millisecond, 30*time.Second)
}

// echoed is the done check for scenarios that end with the scripted
// model's echo of a tool result: it ends the turn.
var echoed = clitest.Has(`tool_result for `, `"turn_duration"`)

var captureCases = []captureCase{
	{
		name: "single_answered", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive:  func(c *captureRun) { c.keys("Down", "Enter") },
		done:   echoed,
		expect: []string{`"answers":{"Which database should we use?":"PostgreSQL"}`},
	},
	{
		name: "single_freetext", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive: func(c *captureRun) {
			c.keys("Down", "Down", "Down")
			c.paste("DuckDB, embedded")
			c.keys("Enter")
		},
		done:   echoed,
		expect: []string{`"answers":{"Which database should we use?":"DuckDB, embedded"}`},
	},
	{
		name: "multi_freetext", prompt: "lab:multi toppings?", picker: "Which toppings do you want?",
		drive: func(c *captureRun) {
			// Toggle Olives, then Cheese (toggle order differs from list
			// order), then type into "Type something", then Submit.
			c.keys("Down", "Space", "Up", "Space", "Down", "Down", "Down", "Down")
			c.paste("no anchovies")
			c.keys("Down", "Enter")
			c.settled("Review your answers")
			c.keys("Enter")
		},
		done:   echoed,
		expect: []string{`"answers":{"Which toppings do you want?":"Olives, Cheese, no anchovies"}`},
	},
	{
		name: "form_answered", prompt: "lab:form two questions", picker: "Which color do you prefer?",
		drive: func(c *captureRun) {
			c.keys("Down", "Enter") // Blue; the form moves to Size
			c.settled("Which sizes should we stock?")
			c.keys("Space", "Down", "Down", "Space", "Down", "Down", "Enter") // Small, Large, Submit
			c.settled("Review your answers")
			c.keys("Enter")
		},
		done:   echoed,
		expect: []string{`"Which color do you prefer?":"Blue"`, `"Which sizes should we stock?":"Small, Large"`},
	},
	{
		name: "form3_answered", prompt: "lab:form3 three questions", picker: "Which color do you prefer?",
		drive: func(c *captureRun) {
			c.keys("Enter") // Red
			c.settled("Which sizes should we stock?")
			c.keys("Down", "Space", "Down", "Down", "Down", "Enter") // Medium, Submit
			c.settled("Which crust do you like?")
			c.keys("Down", "Enter") // Thick
			c.settled("Review your answers")
			c.keys("Enter")
		},
		done:   echoed,
		expect: []string{`"Which color do you prefer?":"Red"`, `"Which sizes should we stock?":"Medium"`, `"Which crust do you like?":"Thick"`},
	},
	{
		name: "plan_approved", mode: "plan", prompt: "lab:plan add a greeting", picker: "Would you like to proceed?",
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   echoed,
		expect: []string{`"name":"ExitPlanMode"`, `User has approved your plan`, `"planFilePath"`},
	},
	{
		name: "plan_approved_manual", mode: "plan", prompt: "lab:plan add a greeting", picker: "Would you like to proceed?",
		drive:  func(c *captureRun) { c.keys("Down", "Enter") },
		done:   echoed,
		expect: []string{`"name":"ExitPlanMode"`, `User has approved your plan`},
	},
	{
		name: "plan_rejected", mode: "plan", prompt: "lab:plan add a greeting", picker: "Would you like to proceed?",
		drive: func(c *captureRun) {
			c.keys("Down", "Down")
			c.paste("Please add tests first")
			c.keys("Enter")
		},
		done:   clitest.Has(`the user said:\nPlease add tests first`, `tool_result (error) for ExitPlanMode`, `"turn_duration"`),
		expect: []string{`"toolDenialKind":"user-rejected"`},
	},
	{
		name: "single_declined", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`[Request interrupted by user for tool use]`),
		expect: []string{`"toolUseResult":"User rejected tool use"`, `"toolDenialKind":"user-rejected"`, `"is_error":true`},
	},
	{
		name: "interrupted", prompt: "lab:slow tell me a long story", picker: "word3 ",
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`[Request interrupted by user]`),
		expect: []string{`Streaming slowly: word1 `},
	},
	{
		name: "single_pending", prompt: "lab:single which database?", picker: "Which database should we use?",
		drive:  func(c *captureRun) {},
		done:   clitest.Has(`"name":"AskUserQuestion"`),
		expect: []string{`"name":"AskUserQuestion"`},
	},
	{
		name: "plan_pending", mode: "plan", prompt: "lab:plan add a greeting", picker: "Would you like to proceed?",
		drive:  func(c *captureRun) {},
		done:   clitest.Has(`"name":"ExitPlanMode"`),
		expect: []string{`"name":"ExitPlanMode"`},
	},
	{
		name: "permission_pending", mode: "manual", prompt: "lab:permission make a file", picker: "Do you want to proceed?",
		drive:  func(c *captureRun) {},
		done:   clitest.Has(`touch lab-permission-probe.txt`),
		expect: []string{`"name":"Bash"`},
	},
	{
		name: "bash", prompt: "lab:bash run something",
		done:   echoed,
		expect: []string{`lab-bash-ok`, `"name":"Bash"`},
	},
	{
		name: "thinking", prompt: "lab:think about it",
		done:   clitest.Has(`I thought about it`, `"turn_duration"`),
		expect: []string{`"type":"thinking"`},
	},
}

func TestCapture(t *testing.T) {
	if !*capture {
		t.Skip("fixture generator; run with -capture to re-capture a fixture set")
	}
	dir := CaptureDir(t)
	t.Logf("capturing %s into %s", CLIVersion(t), dir)
	out := filepath.Join(dir, "captured")
	hooksOut := filepath.Join(dir, "hooks")
	for _, dir := range []string{out, hooksOut} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, cc := range append(captureCases, permissionCaptures...) {
		t.Run(cc.name, func(t *testing.T) { captureOne(t, cc, out, hooksOut) })
	}
}

func captureOne(t *testing.T, cc captureCase, out, hooksOut string) {
	r := NewRig(t, fakeclaudeapi.Options{ChunkDelay: 150 * time.Millisecond, SlowChunks: 200})
	runDir := ShortTempDir(t, "labrun")
	spoolDir := filepath.Join(runDir, "spool")
	settings := filepath.Join(runDir, "settings.json")
	if err := claude.WriteHookSettings(settings, spoolDir); err != nil {
		t.Fatal(err)
	}
	args := []string{"--settings", settings}
	if cc.mode != "" {
		args = append(args, "--permission-mode", cc.mode)
	}
	args = append(args, "--", cc.prompt)
	c := &captureRun{Rig: r, target: "cap"}
	if cc.setup != nil {
		if err := cc.setup(r.Work); err != nil {
			t.Fatal(err)
		}
	}
	r.Spawn(c.target, args...)

	t0 := time.Now()
	spool := claude.OpenSpool(spoolDir)
	transcript := clitest.SessionFile(t, func() string {
		st, _ := spool.Refresh()
		return st.TranscriptPath
	})
	var pane string
	if cc.picker != "" {
		pane = r.WaitPaneSettled(c.target, cc.picker, 500*time.Millisecond, 60*time.Second)
	}
	t.Logf("%v: picker shown", time.Since(t0))
	if cc.drive != nil {
		cc.drive(c)
	}
	t.Logf("%v: driven", time.Since(t0))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pane at failure:\n%s", r.Pane(c.target))
		}
	})
	body := clitest.FinishFile(t, transcript, cc.name+" to finish in the transcript", cc.done)
	t.Logf("%v: done", time.Since(t0))
	st, err := spool.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	norm := normalizer(r, runDir)
	names := clitest.Capture{Name: cc.name, File: "transcript", Body: body, Pane: pane, Expect: cc.expect, SpoolDir: spoolDir, Norm: norm}.Save(t, out)
	// Pin single payloads the spool tests read.
	switch cc.name {
	case "single_pending", "plan_pending":
		if len(st.Pending) != 1 {
			t.Fatalf("got %d pending in the spool; want 1", len(st.Pending))
		}
		tool := strings.ToLower(st.Pending[0].ToolName)
		clitest.WriteText(t, filepath.Join(hooksOut, "pretooluse_"+tool+".json"), norm(string(st.Pending[0].Raw)))
		clitest.WriteText(t, filepath.Join(hooksOut, "sessionstart.json"), norm(rawOf(t, spoolDir, names, claude.HookSessionStart)))
		clitest.WriteText(t, filepath.Join(hooksOut, "userpromptsubmit.json"), norm(rawOf(t, spoolDir, names, claude.HookUserPromptSubmit)))
	case "single_answered":
		clitest.WriteText(t, filepath.Join(hooksOut, "posttooluse_askuserquestion.json"), norm(rawOf(t, spoolDir, names, claude.HookPostToolUse)))
		clitest.WriteText(t, filepath.Join(hooksOut, "stop.json"), norm(rawOf(t, spoolDir, names, claude.HookStop)))
	case "permission_pending":
		// The permission prompt's notification comes a few seconds after
		// the prompt shows.
		Poll(t, 30*time.Second, "the permission Notification", func() bool {
			st, _ := spool.Refresh()
			return st.LastNotification != nil
		})
		st, _ = spool.Refresh()
		clitest.WriteText(t, filepath.Join(hooksOut, "notification_permission.json"), norm(string(st.LastNotification.Raw)))
	}
}

func rawOf(t *testing.T, dir string, names []string, event string) string {
	t.Helper()
	for _, n := range names {
		if strings.HasPrefix(n, event+".") {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no %s payload in the spool", event)
	return ""
}

// normalizer replaces the random temp paths of a capture with fixed ones
// of the same shape, so re-captures diff cleanly. Ids and timestamps stay
// as the CLI wrote them.
func normalizer(r *Rig, runDir string) func(string) string {
	home, work := r.Home, r.Work
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(work, "-")
	rep := strings.NewReplacer(
		work, "/tmp/lab/work",
		home, "/tmp/lab/home",
		runDir, "/tmp/lab/run",
		slug, "-tmp-lab-work",
		r.API.URL(), "http://127.0.0.1:8765",
	)
	return rep.Replace
}
