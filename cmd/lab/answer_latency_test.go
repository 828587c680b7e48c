package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
)

// TestAnswerLatency measures, per dialog shape, how long an answer takes
// from the operator's tap — the answer call, POST /runs/{id}/answer — to
// the API showing the dialog resolved (the run's messages no longer carry
// it as pending_dialog: what a client's refetch after its answer call
// sees). It drives `lab demo` processes with the real CLI and the
// scripted model: this build and, with LAB_ANSWER_BEFORE_BIN, another
// lab binary (an older build) in the same run, interleaved round by
// round, so both meet the same load. Each card has been on screen for
// LAB_ANSWER_READ (default 1 s: an operator reading it) before the
// answer. A measurement, not a check: figures in docs/benchmarks.md.
//
//	LAB_ANSWER_ROUNDS=20 [LAB_ANSWER_BEFORE_BIN=/tmp/lab-before] [LAB_ANSWER_READ=1s] \
//	[LAB_ANSWER_OUT=/tmp/answer.md] go test ./cmd/lab -run TestAnswerLatency -v -timeout 4h
func TestAnswerLatency(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("LAB_ANSWER_ROUNDS"))
	if rounds <= 0 {
		t.Skip("measurement; set LAB_ANSWER_ROUNDS to run it")
	}
	read := time.Second
	if s := os.Getenv("LAB_ANSWER_READ"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("LAB_ANSWER_READ: %v", err)
		}
		read = d
	}
	builds := []*latencyBuild{{name: "after", argv: selfArgv(t)}}
	if bin := os.Getenv("LAB_ANSWER_BEFORE_BIN"); bin != "" {
		builds = append([]*latencyBuild{{name: "before", argv: []string{bin}}}, builds...)
	}
	for _, b := range builds {
		b.lab = startLabProcess(t, b.argv)
		b.runs, b.seen = map[string]string{}, map[string]bool{}
		b.took = map[string][]time.Duration{}
	}
	load0 := loadAvg()
	start := time.Now()
	for round := range rounds {
		for _, s := range latencyShapes {
			for k := range builds {
				// Alternate which build goes first, so neither always
				// follows the other's CLI work.
				b := builds[(k+round)%len(builds)]
				took, err := b.sample(t, s, read)
				if err != nil {
					t.Errorf("%s round %d %s: %v", b.name, round, s.name, err)
					continue
				}
				b.took[s.name] = append(b.took[s.name], took)
			}
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%d rounds, card read for %v, load average %s at the start and %s at the end, %v in all\n\n",
		rounds, read, load0, loadAvg(), time.Since(start).Round(time.Second))
	head, rule := "| shape |", "|---|"
	for _, b := range builds {
		head += fmt.Sprintf(" %s p50 | %s p95 |", b.name, b.name)
		rule += "---|---|"
	}
	if len(builds) == 2 {
		head += " p50 after/before | p95 after/before |"
		rule += "---|---|"
	}
	fmt.Fprintf(&out, "%s\n%s\n", head, rule)
	for _, s := range latencyShapes {
		row := "| " + s.name + " |"
		var p50s, p95s []time.Duration
		for _, b := range builds {
			p50, p95 := quantile(b.took[s.name], 0.5), quantile(b.took[s.name], 0.95)
			p50s, p95s = append(p50s, p50), append(p95s, p95)
			row += fmt.Sprintf(" %v | %v |", p50.Round(time.Millisecond), p95.Round(time.Millisecond))
		}
		if len(builds) == 2 && p50s[0] > 0 && p95s[0] > 0 {
			row += fmt.Sprintf(" %.2f | %.2f |", float64(p50s[1])/float64(p50s[0]), float64(p95s[1])/float64(p95s[0]))
		}
		fmt.Fprintln(&out, row)
	}
	t.Logf("answer call → dialog resolved in the API:\n%s", out.String())
	if path := os.Getenv("LAB_ANSWER_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// latencyShape is one dialog shape of the measurement: the run it needs
// and the answer it gets.
type latencyShape struct {
	name, mode, prompt string
	fresh              bool // a new run every round (an approved plan leaves plan mode)
	answer             func(d *conv.Dialog) conv.Answer
}

func questions(qas ...conv.QuestionAnswer) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer { return conv.Answer{ToolID: d.ToolID, Answers: qas} }
}

func option(i int, feedback string) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer { return conv.Answer{ToolID: d.ToolID, Option: &i, Feedback: feedback} }
}

func optionRole(role conv.OptionRole, feedback string) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer {
		for i, o := range d.Permission.Options {
			if o.Role == role {
				return conv.Answer{ToolID: d.ToolID, Option: &i, Feedback: feedback}
			}
		}
		return conv.Answer{ToolID: d.ToolID}
	}
}

var latencyShapes = []latencyShape{
	{name: "single", prompt: "lab:single which database?", answer: questions(conv.QuestionAnswer{Chosen: []int{1}})},
	{name: "single_other", prompt: "lab:single which database?", answer: questions(conv.QuestionAnswer{OtherText: "DuckDB, embedded"})},
	{name: "multi_2", prompt: "lab:multi toppings?", answer: questions(conv.QuestionAnswer{Chosen: []int{2, 0}})},
	{name: "multi_2_other", prompt: "lab:multi toppings?", answer: questions(conv.QuestionAnswer{Chosen: []int{3, 1}, OtherText: "no anchovies"})},
	{name: "form_2", prompt: "lab:form two questions", answer: questions(conv.QuestionAnswer{Chosen: []int{1}}, conv.QuestionAnswer{Chosen: []int{2, 0}})},
	{name: "form_3", prompt: "lab:form3 three questions", answer: questions(conv.QuestionAnswer{OtherText: "teal"}, conv.QuestionAnswer{Chosen: []int{1}, OtherText: "tiny"}, conv.QuestionAnswer{Chosen: []int{1}})},
	{name: "plan_approve", mode: "plan", prompt: "lab:plan add a greeting", fresh: true, answer: option(0, "")},
	{name: "plan_reject_feedback", mode: "plan", prompt: "lab:plan add a greeting", answer: option(2, "Please add tests first")},
	{name: "permission_allow", mode: "manual", prompt: "lab:permission make a file", answer: optionRole(conv.RoleAllowOnce, "")},
	{name: "permission_deny_feedback", mode: "manual", prompt: "lab:permission make a file", answer: optionRole(conv.RoleDeny, "Use mkdir instead")},
}

// latencyBuild is one lab binary under measurement.
type latencyBuild struct {
	name string
	argv []string
	lab  *labServer
	runs map[string]string // the run each shape reuses
	seen map[string]bool   // the dialogs already measured
	took map[string][]time.Duration
}

// sample brings a dialog of shape s up (typing its prompt into the
// shape's run, or starting one), waits read, answers it and returns how
// long until the API no longer serves it as pending.
func (b *latencyBuild) sample(t *testing.T, s latencyShape, read time.Duration) (time.Duration, error) {
	l := b.lab
	id := b.runs[s.name]
	if id != "" && !s.fresh {
		l.waitPage(id, "the turn to end", func(p conv.Page) bool {
			return p.PendingDialog == nil && (p.State == conv.StateNeedsInput || p.State == conv.StateIdle)
		})
		if code := l.call("POST", "/api/v1/runs/"+id+"/reply", map[string]string{"text": s.prompt}, nil); code != 204 {
			// The CLI may not show its prompt yet: a fresh run instead.
			l.call("POST", "/api/v1/runs/"+id+"/stop", nil, nil)
			id = ""
		}
	} else if id != "" {
		l.call("POST", "/api/v1/runs/"+id+"/stop", nil, nil)
		id = ""
	}
	if id == "" {
		var run conv.Run
		if code := l.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: s.prompt, PermissionMode: s.mode}, &run); code != 201 {
			return 0, fmt.Errorf("start: status %d", code)
		}
		id = run.ID
		b.runs[s.name] = id
	}
	p := l.waitPage(id, "the dialog of "+s.prompt, func(p conv.Page) bool {
		d := p.PendingDialog
		return d != nil && !b.seen[d.ToolID] && (d.Kind != conv.DialogPermission || len(d.Permission.Options) > 0)
	})
	d := p.PendingDialog
	b.seen[d.ToolID] = true
	time.Sleep(read) // the operator reads the card
	start := time.Now()
	if code := l.call("POST", "/api/v1/runs/"+id+"/answer", s.answer(d), nil); code != 204 {
		return 0, fmt.Errorf("answer: status %d", code)
	}
	for {
		p := l.page(id)
		if p.PendingDialog == nil || p.PendingDialog.ToolID != d.ToolID {
			return time.Since(start), nil
		}
		if time.Since(start) > 60*time.Second {
			return 0, fmt.Errorf("dialog %s still pending 60 s after its answer", d.ToolID)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startLabProcess runs `lab demo` from argv as its own process, with a
// private state dir and HOME and the pinned Claude Code CLI (no Codex),
// until the test ends.
func startLabProcess(t *testing.T, argv []string) *labServer {
	t.Helper()
	state := claudetest.ShortTempDir(t, "labsrv")
	home := t.TempDir()
	db, err := OpenStore(t.Context(), state)
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := db.CreateAPIToken(t.Context(), "latency")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, argv...), "demo", "--addr", "127.0.0.1:0", "--state-dir", state,
		"--claude-bin", claudetest.CLI(t), "--codex-bin", filepath.Join(home, "no-codex"))
	// Runs outlive lab by design: end this test's tmux server after it.
	t.Cleanup(func() { exec.Command("tmux", "-S", filepath.Join(state, "tmux.sock"), "kill-server").Run() })
	log := &syncBuf{}
	base, _ := startProcess(t, args, []string{"HOME=" + home}, log)
	return &labServer{t: t, base: base, state: state, token: token, log: log}
}

// loadAvg is the machine's 1, 5 and 15 minute load averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
