package claude_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/fakeclaudeapi"
)

// capturePanes regenerates the panes/*.txt of a fixture set (see
// claudetest.CaptureDir): the picker and prompt screens of the real CLI
// under test, driven by hand into each state the recipes check. After
// re-capturing, refresh the goldens with -update-panes and review both
// diffs.
//
//	go test ./internal/claude -run TestCapturePanes -capture-panes -v
var capturePanes = flag.Bool("capture-panes", false, "re-capture the panes of the CLI version's fixture set (or $LAB_CAPTURE_DIR) from the real CLI")

// paneShot is one state to save: the keys (or paste, as "paste:<text>")
// that lead to it from the previous shot, and text the pane must show. A
// shot without a name only waits for its state.
type paneShot struct {
	name  string
	keys  []string
	until string
}

type paneSession struct {
	name   string
	mode   string
	prompt string // "" for a CLI at its empty prompt
	shots  []paneShot
	// setup prepares the rig before the CLI starts (files the scenario
	// needs; forgetting the folder's trust).
	setup func(t *testing.T, r *claudetest.Rig)
}

var paneSessions = []paneSession{
	{name: "single", prompt: "lab:single which database?", shots: []paneShot{
		{"single-fresh", nil, "Which database should we use?"},
		{"single-row2", []string{"Down"}, "❯ 2. PostgreSQL"},
		{"single-freetext-row", []string{"Down", "Down"}, "❯ 4. Type something."},
		{"single-freetext-typed", []string{"paste:DuckDB, embedded"}, "❯ 4. DuckDB, embedded"},
		{"single-chat-row", []string{"Down"}, "❯ 5. Chat about this"},
		{"prompt-after-decline", []string{"Escape"}, "Declined to answer"},
	}},
	{name: "multi", prompt: "lab:multi toppings?", shots: []paneShot{
		{"multi-fresh", nil, "Which toppings do you want?"},
		{"multi-ticked", []string{"Down", "Space"}, "❯ 2. [✔] Olives"},
		{"multi-freetext-typed", []string{"Down", "Down", "Down", "paste:no anchovies"}, "❯ 5. [✔] no anchovies"},
		{"multi-submit-row", []string{"Down"}, "❯    Submit"},
		{"multi-review", []string{"Enter"}, "Review your answers"},
	}},
	{name: "form3", prompt: "lab:form3 three questions", shots: []paneShot{
		{"form3-q1", nil, "Which color do you prefer?"},
		{"form3-q1-freetext", []string{"Down", "Down", "Down", "paste:teal"}, "❯ 4. teal"},
		{"form3-q2", []string{"Enter"}, "Which sizes should we stock?"},
		{"form3-q2-next-row", []string{"Down", "Space", "Down", "Down", "Down"}, "❯    Next"},
		{"form3-q3", []string{"Enter"}, "Which crust do you like?"},
		{"form3-review", []string{"Down", "Enter"}, "Review your answers"},
	}},
	{name: "plan", mode: "plan", prompt: "lab:plan add a greeting", shots: []paneShot{
		{"plan-fresh", nil, "Would you like to proceed?"},
		{"plan-row2", []string{"Down"}, "❯ 2. Yes, manually approve edits"},
		{"plan-feedback-typed", []string{"Down", "paste:Please add tests first"}, "❯ 3. Please add tests first"},
	}},
	{name: "permission", mode: "manual", prompt: "lab:permission make a file", shots: []paneShot{
		{"permission-prompt", nil, "Do you want to proceed?"},
		{"permission-deny-row", []string{"Down", "Down", "Down"}, "❯ 4. No"},
		{"permission-deny-amend", []string{"Tab"}, "❯ 4. No, and tell Claude what to do differently"},
		{"permission-deny-typed", []string{"paste:Use mkdir instead"}, "❯ 4. No, Use mkdir instead"},
	}},
	{name: "permission-rule", mode: "manual", prompt: "lab:twice go", shots: []paneShot{
		{"permission-rule", nil, "Do you want to proceed?"},
		{"permission-rule-row2", []string{"Down"}, "❯ 2. Yes, and don"},
	}},
	{name: "permission-edit", mode: "manual", prompt: "lab:edit go", setup: editFile, shots: []paneShot{
		{"permission-edit", nil, "Do you want to make this edit to"},
	}},
	{name: "permission-write", mode: "manual", prompt: "lab:write go", shots: []paneShot{
		{"permission-write", nil, "Do you want to create"},
	}},
	{name: "permission-fetch", mode: "manual", prompt: "lab:fetch go", shots: []paneShot{
		{"permission-fetch", nil, "Do you want to allow Claude to fetch"},
	}},
	{name: "trust", setup: forgetTrust, shots: []paneShot{
		{"trust-fresh", nil, "Yes, I trust this folder"},
		{"trust-yes-row", []string{"Down"}, "❯ Yes, I trust this folder"},
	}},
	{name: "prompt", shots: []paneShot{
		{"prompt-empty", nil, "shift+tab to cycle"},
		{"prompt-pasted-long", []string{"paste:" + strings.Repeat("a line of a long reply\n", 19) + "the last line"}, "[Pasted text #"},
	}},
	{name: "prompt-typed", shots: []paneShot{
		{"", nil, "shift+tab to cycle"},
		{"prompt-typed", []string{"paste:first line\nsecond line"}, "second line"},
	}},
	{name: "busy", prompt: "lab:slow tell me a long story", shots: []paneShot{
		{"prompt-busy", nil, "esc to interrupt"},
	}},
}

func TestCapturePanes(t *testing.T) {
	if !*capturePanes {
		t.Skip("fixture generator; run with -capture-panes")
	}
	dir := filepath.Join(claudetest.CaptureDir(t), "panes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("capturing %s into %s", claudetest.CLIVersion(t), dir)
	for _, ps := range paneSessions {
		t.Run(ps.name, func(t *testing.T) {
			r := claudetest.NewRig(t, fakeclaudeapi.Options{ChunkDelay: 200 * time.Millisecond, SlowChunks: 300})
			if ps.setup != nil {
				ps.setup(t, r)
			}
			args := []string{}
			if ps.mode != "" {
				args = append(args, "--permission-mode", ps.mode)
			}
			if ps.prompt != "" {
				args = append(args, "--", ps.prompt)
			}
			r.Spawn("cap", args...)
			norm := strings.NewReplacer(r.Work, "/tmp/lab/work", r.Home, "/tmp/lab/home").Replace
			for _, shot := range ps.shots {
				for _, k := range shot.keys {
					if text, ok := strings.CutPrefix(k, "paste:"); ok {
						r.Paste("cap", text)
					} else {
						r.Keys("cap", k)
					}
				}
				r.WaitPane("cap", shot.until, 60*time.Second)
				pane := stablePane(t, r, shot.until)
				if shot.name == "" {
					continue // only waited for the state
				}
				path := filepath.Join(dir, shot.name+".txt")
				if err := os.WriteFile(path, []byte(norm(pane)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// editFile gives the edit scenario the file it edits.
func editFile(t *testing.T, r *claudetest.Rig) {
	if err := os.WriteFile(filepath.Join(r.Work, fakeclaudeapi.EditFile), []byte(fakeclaudeapi.EditBefore+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// forgetTrust moves the CLI to a folder its config does not trust.
func forgetTrust(t *testing.T, r *claudetest.Rig) {
	r.Work = filepath.Join(filepath.Dir(r.Work), "untrusted")
	if err := os.MkdirAll(r.Work, 0o755); err != nil {
		t.Fatal(err)
	}
}

// stablePane polls until two captures 300ms apart agree and still show
// until: the TUI has finished drawing the state.
func stablePane(t *testing.T, r *claudetest.Rig, until string) string {
	t.Helper()
	prev := r.Pane("cap")
	var pane string
	claudetest.Poll(t, 30*time.Second, "a stable pane", func() bool {
		time.Sleep(300 * time.Millisecond)
		pane = r.Pane("cap")
		same := pane == prev && strings.Contains(pane, until)
		prev = pane
		return same
	})
	return pane
}
