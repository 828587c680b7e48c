package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// The real-CLI matrix: every dialog shape answered through the Actor into
// the real Claude Code CLI 2.1.328 in tmux, asserting what the transcript
// recorded (toolUseResult) and what the live fold shows (the outcome, and
// no desync warning, since the intent must agree with the record).

// shape is one answer case of the matrix.
type shape struct {
	name   string
	mode   string // --permission-mode
	prompt string // picks the scripted scenario
	marker string // pane text that shows the picker is up
	answer func(d *conv.Dialog) conv.Answer
	// For questions: the recorded toolUseResult.answers.
	answers map[string]string
	// For plans: approved, else the feedback the rejection carries.
	approved bool
	feedback string
	outcome  *conv.Outcome
}

const (
	qDB    = "Which database should we use?"
	qTops  = "Which toppings do you want?"
	qColor = "Which color do you prefer?"
	qSize  = "Which sizes should we stock?"
	qCrust = "Which crust do you like?"
)

func answerQ(qas ...conv.QuestionAnswer) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer { return conv.Answer{ToolID: d.ToolID, Answers: qas} }
}

func answerPlan(option int, feedback string) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer {
		return conv.Answer{ToolID: d.ToolID, Option: &option, Feedback: feedback}
	}
}

func result(q string, chosen []string, other string) conv.QuestionResult {
	return conv.QuestionResult{Question: q, Chosen: chosen, OtherText: other}
}

// shapes is the answer matrix (also the pacing measurement's workload).
var shapes = []shape{
	{name: "single_option_first", prompt: "lab:single which database?", marker: qDB, answer: answerQ(qa(0)),
		answers: map[string]string{qDB: "SQLite"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qDB, []string{"SQLite"}, "")}}},
	{name: "single_option_last", prompt: "lab:single which database?", marker: qDB, answer: answerQ(qa(2)),
		answers: map[string]string{qDB: "MySQL"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qDB, []string{"MySQL"}, "")}}},
	{name: "single_free_text", prompt: "lab:single which database?", marker: qDB, answer: answerQ(qaText("DuckDB, embedded")),
		answers: map[string]string{qDB: "DuckDB, embedded"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qDB, nil, "DuckDB, embedded")}}},
	{name: "multi_two_in_chosen_order", prompt: "lab:multi toppings?", marker: qTops, answer: answerQ(qa(2, 0)),
		answers: map[string]string{qTops: "Mushrooms, Cheese"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qTops, []string{"Mushrooms", "Cheese"}, "")}}},
	{name: "multi_with_free_text", prompt: "lab:multi toppings?", marker: qTops, answer: answerQ(qaText("no anchovies", 3, 1)),
		answers: map[string]string{qTops: "Peppers, Olives, no anchovies"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qTops, []string{"Peppers", "Olives"}, "no anchovies")}}},
	{name: "multi_free_text_only", prompt: "lab:multi toppings?", marker: qTops, answer: answerQ(qaText("just anchovies")),
		answers: map[string]string{qTops: "just anchovies"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qTops, nil, "just anchovies")}}},
	{name: "form_single_and_multi", prompt: "lab:form two questions", marker: qColor, answer: answerQ(qa(1), qa(2, 0)),
		answers: map[string]string{qColor: "Blue", qSize: "Large, Small"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qColor, []string{"Blue"}, ""), result(qSize, []string{"Large", "Small"}, "")}}},
	{name: "form3_mixed", prompt: "lab:form3 three questions", marker: qColor, answer: answerQ(qaText("teal"), qaText("tiny", 1), qa(1)),
		answers: map[string]string{qColor: "teal", qSize: "Medium, tiny", qCrust: "Thick"},
		outcome: &conv.Outcome{Results: []conv.QuestionResult{result(qColor, nil, "teal"), result(qSize, []string{"Medium"}, "tiny"), result(qCrust, []string{"Thick"}, "")}}},
	{name: "plan_approve_row0", mode: "plan", prompt: "lab:plan add a greeting", marker: "Would you like to proceed?", answer: answerPlan(0, ""),
		approved: true, outcome: &conv.Outcome{Approved: true}},
	{name: "plan_approve_row1", mode: "plan", prompt: "lab:plan add a greeting", marker: "Would you like to proceed?", answer: answerPlan(1, ""),
		approved: true, outcome: &conv.Outcome{Approved: true}},
	{name: "plan_reject_feedback", mode: "plan", prompt: "lab:plan add a greeting", marker: "Would you like to proceed?", answer: answerPlan(2, "Please add tests first"),
		feedback: "Please add tests first", outcome: &conv.Outcome{Feedback: "Please add tests first"}},
}

// checkRecorded asserts the transcript's resolution of a shape's dialog.
func checkRecorded(t testing.TB, s shape, res resolution) error {
	if res.Count != 1 {
		return fmt.Errorf("%d tool_results for the dialog; want 1", res.Count)
	}
	if s.answers != nil {
		var v struct {
			Answers map[string]string `json:"answers"`
		}
		if err := json.Unmarshal(res.Result, &v); err != nil || v.Answers == nil {
			return fmt.Errorf("toolUseResult %s has no answers (%v)", res.Result, err)
		}
		if len(v.Answers) != len(s.answers) {
			return fmt.Errorf("recorded answers %q; want %q", v.Answers, s.answers)
		}
		for q, a := range s.answers {
			if v.Answers[q] != a {
				return fmt.Errorf("recorded answers %q; want %q", v.Answers, s.answers)
			}
		}
		return nil
	}
	if s.approved {
		var v struct {
			Plan *string `json:"plan"`
		}
		if err := json.Unmarshal(res.Result, &v); err != nil || v.Plan == nil || res.DenialKind != "" {
			return fmt.Errorf("toolUseResult %.200s (denial %q); want an approval carrying the plan", res.Result, res.DenialKind)
		}
		return nil
	}
	var str string
	if err := json.Unmarshal(res.Result, &str); err != nil || !strings.HasSuffix(str, "the user said:\n"+s.feedback) || res.DenialKind != "user-rejected" {
		return fmt.Errorf("toolUseResult %.300s (denial %q); want a rejection ending with the feedback", res.Result, res.DenialKind)
	}
	return nil
}

// runShape starts a run for s, answers it with the actor and returns the
// dialog and the answer's error.
func runShape(t testing.TB, s shape, keyDelay time.Duration) (*cliRun, *conv.Dialog, error) {
	r := startRun(t, s.mode, s.prompt, fakeclaudeapi.Options{}, e2eOpts(keyDelay))
	d := r.waitPending(s.marker)
	err := r.actor.Answer(context.Background(), s.answer(d))
	return r, d, err
}

func TestE2EAnswerMatrix(t *testing.T) {
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			r, d, err := runShape(t, s, DefaultKeyDelay)
			if err != nil {
				t.Fatalf("Answer: %v\npane:\n%s", err, r.rig.Pane(r.target))
			}
			res := r.waitResolution(d.ToolID)
			if err := checkRecorded(t, s, res); err != nil {
				t.Error(err)
			}
			got, after := r.folded(d.ToolID)
			if !sameOutcome(got.Outcome, s.outcome) {
				t.Errorf("folded outcome %s; want %s", outcomeString(got.Outcome), outcomeString(s.outcome))
			}
			if w := warningsAfter(after); len(w) != 0 {
				t.Errorf("desync warnings after a faithful answer: %q", w)
			}
		})
	}
}

// TestE2EDeclinedAtTerminal: the operator declines the picker at the
// terminal; a later answer from lab is a conflict and sends nothing. A
// reply while the picker was up was refused too. The decline here is an
// Enter on the empty free-text row, which pins a fact the facts file
// gives only for older versions: on 2.1.328 too it declines the dialog
// (hence the validation rule that the free-text row needs text).
func TestE2EDeclinedAtTerminal(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "lab:single which database?", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPending(qDB)
	if err := r.actor.Reply(context.Background(), "free text cannot answer a picker"); conv.KindOf(err) != conv.EConflict {
		t.Errorf("Reply while a dialog is pending = %v; want a conflict", err)
	}
	r.rig.Keys(r.target, "Down", "Down", "Down")
	r.rig.WaitPane(r.target, "❯ 4. Type something.", 10*time.Second)
	// Past the picker grace, so the Enter is not dropped.
	time.Sleep(DefaultPickerGrace)
	r.rig.Keys(r.target, "Enter")
	res := r.waitResolution(d.ToolID)
	if res.DenialKind != "user-rejected" || string(res.Result) != `"User rejected tool use"` {
		t.Errorf("decline recorded as %s (%q); want the user-rejected string", res.Result, res.DenialKind)
	}
	claudetest.Poll(t, 30*time.Second, "the spool and fold to retire the dialog", func() bool {
		p, _ := r.live.current()
		return p == nil
	})
	err := r.actor.Answer(context.Background(), conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0)}})
	if conv.KindOf(err) != conv.EConflict {
		t.Fatalf("answer after decline = %v; want a conflict", err)
	}
	if sent := r.pane.Sent(); len(sent) != 0 {
		t.Errorf("keys sent: %q; want none", sent)
	}
	got, _ := r.folded(d.ToolID)
	if !got.Outcome.Dismissed {
		t.Errorf("folded outcome %s; want dismissed", outcomeString(got.Outcome))
	}
}

// TestE2ERefusals: a stale tool_id is a conflict and malformed answers are
// invalid — no key sent and the pane unchanged — and the picker is then
// still answerable as if nothing happened, even with the cursor moved at
// the terminal.
func TestE2ERefusals(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "lab:form two questions", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPending(qColor)
	ctx := context.Background()
	before := r.rig.Pane(r.target)
	cases := []struct {
		name string
		a    conv.Answer
		kind conv.ErrorKind
	}{
		{"stale tool_id", conv.Answer{ToolID: "toolu_stale", Answers: []conv.QuestionAnswer{qa(0), qa(0)}}, conv.EConflict},
		{"one answer for two questions", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0)}}, conv.EInvalid},
		{"index out of range", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(3), qa(0)}}, conv.EInvalid},
		{"two options on single-select", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0, 1), qa(0)}}, conv.EInvalid},
		{"duplicate toggles", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0), qa(1, 1)}}, conv.EInvalid},
		{"multi-line free text", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qaText("a\nb"), qa(0)}}, conv.EInvalid},
		{"control character", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qaText("a\x1b[Bb"), qa(0)}}, conv.EInvalid},
		{"nothing chosen", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0), qa()}}, conv.EInvalid},
		{"plan fields on a question", conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0), qa(0)}, Feedback: "x"}, conv.EInvalid},
	}
	for _, c := range cases {
		err := r.actor.Answer(ctx, c.a)
		if k := conv.KindOf(err); k != c.kind {
			t.Errorf("%s: got %v (%s); want %s", c.name, err, k, c.kind)
		}
	}
	if sent := r.pane.Sent(); len(sent) != 0 {
		t.Errorf("keys sent by refused answers: %q; want none", sent)
	}
	if after := r.rig.Pane(r.target); belowBanner(after) != belowBanner(before) {
		t.Errorf("the pane changed under refused answers:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// The picker is untouched: a valid answer still lands exactly, even
	// after someone moved the cursor at the terminal (the actor climbs
	// back to row 1 by the rows the pane shows).
	r.rig.Keys(r.target, "Down", "Down")
	r.rig.WaitPane(r.target, "❯ 3. Green", 10*time.Second)
	s := shapes[6] // form_single_and_multi
	if err := r.actor.Answer(ctx, s.answer(d)); err != nil {
		t.Fatalf("valid answer after refusals: %v", err)
	}
	if err := checkRecorded(t, s, r.waitResolution(d.ToolID)); err != nil {
		t.Error(err)
	}
}

// TestE2EConcurrentAnswers: two answers for one dialog at once — exactly
// one lands, the other is a conflict, and the transcript shows one answer.
func TestE2EConcurrentAnswers(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "lab:multi toppings?", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPending(qTops)
	answers := []conv.Answer{
		{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0, 1)}},
		{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qaText("olive oil", 3)}},
	}
	records := []string{"Cheese, Olives", "Peppers, olive oil"}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.actor.Answer(context.Background(), answers[i])
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner < 0:
			winner = i
		case err == nil:
			t.Fatalf("both answers landed")
		case conv.KindOf(err) != conv.EConflict:
			t.Fatalf("answer %d: %v; want nil or a conflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatalf("no answer landed: %v", errs)
	}
	res := r.waitResolution(d.ToolID)
	got := recordedAnswers(t, res)
	if res.Count != 1 || got[qTops] != records[winner] {
		t.Errorf("transcript: %d results, answers %q; want one result %q", res.Count, got, records[winner])
	}
	// Let the turn finish; still exactly one resolution.
	r.rig.WaitPane(r.target, "tool_result for AskUserQuestion", 30*time.Second)
	if res, _ := findResolution(t, r.transcriptPath(), d.ToolID); res.Count != 1 {
		t.Errorf("%d resolutions in the transcript; want 1", res.Count)
	}
}

// TestE2EReplyMultiLine: a 20-line reply arrives as one user message.
func TestE2EReplyMultiLine(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	claudetest.Poll(t, 60*time.Second, "the CLI's empty prompt", func() bool {
		box, ok := claude.ParsePrompt(r.rig.Pane(r.target))
		return ok && box.Empty()
	})
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d of the reply", i))
	}
	lines[9] = "\tline 10 starts with a tab"
	text := strings.Join(lines, "\n")
	// What the CLI records: the tab as four spaces (pinned below).
	recorded := slices.Clone(lines)
	recorded[9] = "    line 10 starts with a tab"
	if err := r.actor.Reply(context.Background(), text); err != nil {
		t.Fatalf("Reply: %v\npane:\n%s", err, r.rig.Pane(r.target))
	}
	req := r.rig.WaitRequest(60*time.Second, "the reply reaching the model", func(q fakeclaudeapi.Request) bool {
		return q.Kind == "messages" && strings.Contains(q.Prompt, "line 20 of the reply")
	})
	if !containsInOrder(req.Prompt, recorded) {
		t.Errorf("the model got %q; want all 20 lines in one message", req.Prompt)
	}
	// The transcript holds one typed user line with all 20 lines.
	path := r.transcriptPath()
	var prompts []string
	claudetest.Poll(t, 30*time.Second, "the reply in the transcript", func() bool {
		prompts = typedPrompts(t, path)
		return len(prompts) > 0
	})
	if len(prompts) != 1 || !containsInOrder(prompts[0], recorded) {
		t.Fatalf("typed prompts in the transcript: %q; want one with all 20 lines", prompts)
	}
	// Pinned (not in the facts file): a paste this long shows as
	// "[Pasted text #1 +19 lines]" in the input box, and the transcript
	// records it wrapped in <pasted_content id="…"> tags, with the tab
	// turned into four spaces.
	if !strings.Contains(prompts[0], "<pasted_content id=") || strings.Contains(prompts[0], "\t") {
		t.Errorf("recorded prompt %q; want it wrapped in <pasted_content> with the tab expanded", prompts[0])
	}
	// And the fold shows one user message carrying all of it, without the
	// paste markers.
	claudetest.Poll(t, 30*time.Second, "the folded reply", func() bool {
		n := 0
		for _, m := range r.live.snapshot(conv.Query{Limit: 1000}).Messages {
			if m.Kind == conv.KindText && m.Role == conv.RoleUser && containsInOrder(m.Text, recorded) && !strings.Contains(m.Text, "pasted_content") {
				n++
			}
		}
		return n == 1
	})
}

// typedPrompts returns the text of the transcript's typed user prompts.
func typedPrompts(t testing.TB, path string) []string {
	var out []string
	for _, m := range transcriptLines(t, path) {
		if string(m["type"]) != `"user"` || string(m["promptSource"]) != `"typed"` {
			continue
		}
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m["message"], &msg)
		var s string
		if json.Unmarshal(msg.Content, &s) == nil {
			out = append(out, s)
			continue
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		json.Unmarshal(msg.Content, &blocks)
		var parts []string
		for _, b := range blocks {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
		out = append(out, strings.Join(parts, "\n"))
	}
	return out
}

func containsInOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// TestE2EInterrupt: Escape during slow streaming interrupts the turn: the
// transcript records it, the fold shows the interrupt lifecycle message,
// and the state is needs_input.
func TestE2EInterrupt(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "lab:slow tell me a long story", fakeclaudeapi.Options{ChunkDelay: 150 * time.Millisecond, SlowChunks: 200}, e2eOpts(DefaultKeyDelay))
	r.rig.WaitPane(r.target, "word3 ", 60*time.Second)
	if err := r.actor.Interrupt(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := r.transcriptPath()
	claudetest.Poll(t, 30*time.Second, "the interrupt in the transcript", func() bool {
		for _, p := range userMessages(t, path) {
			if strings.Contains(p, "[Request interrupted by user]") {
				return true
			}
		}
		return false
	})
	var page conv.Page
	claudetest.Poll(t, 30*time.Second, "state needs_input with an interrupt message", func() bool {
		page = r.live.snapshot(conv.Query{Limit: 1000})
		return page.State == conv.StateNeedsInput && hasInterruptNote(page.Messages)
	})
	if strings.Contains(r.rig.Pane(r.target), "finished.") {
		t.Error("the slow text streamed to its end; the interrupt did not stop it")
	}
}

func hasInterruptNote(msgs []conv.Message) bool {
	for _, m := range msgs {
		if m.Kind == conv.KindLifecycle && m.Lifecycle != nil && strings.Contains(strings.ToLower(m.Lifecycle.Text), "interrupt") {
			return true
		}
	}
	return false
}

// userMessages returns the raw message JSON of every user line.
func userMessages(t testing.TB, path string) []string {
	var out []string
	for _, m := range transcriptLines(t, path) {
		if string(m["type"]) != `"user"` {
			continue
		}
		out = append(out, string(m["message"]))
	}
	return out
}

// TestE2EDesync: lab's recorded intent says SQLite, the operator answers
// PostgreSQL at the terminal; the fold warns right after the dialog.
func TestE2EDesync(t *testing.T) {
	t.Parallel()
	r := startRun(t, "", "lab:single which database?", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPending(qDB)
	r.intents.Record(d.ToolID, claude.IntendedOutcome(d, conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{qa(0)}}))
	r.rig.Keys(r.target, "Down", "Enter")
	res := r.waitResolution(d.ToolID)
	if got := recordedAnswers(t, res)[qDB]; got != "PostgreSQL" {
		t.Fatalf("recorded %q; want the terminal's PostgreSQL", got)
	}
	got, after := r.folded(d.ToolID)
	if !sameOutcome(got.Outcome, &conv.Outcome{Results: []conv.QuestionResult{result(qDB, []string{"PostgreSQL"}, "")}}) {
		t.Errorf("folded outcome %s; want PostgreSQL", outcomeString(got.Outcome))
	}
	w := warningsAfter(after)
	if len(w) != 1 || !strings.Contains(w[0], "SQLite") || !strings.Contains(w[0], "PostgreSQL") {
		t.Errorf("warnings after the dialog: %q; want one naming what lab sent and what was recorded", w)
	}
	if len(after) == 0 || after[0].Kind != conv.KindLifecycle {
		t.Errorf("the message right after the dialog is %+v; want the warning", after)
	}
}

// TestE2EPlanFeedbackNewline pins why plan feedback must be one line: a
// newline pasted into the feedback row is recorded as a carriage return.
func TestE2EPlanFeedbackNewline(t *testing.T) {
	t.Parallel()
	r := startRun(t, "plan", "lab:plan add a greeting", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPending("Would you like to proceed?")
	r.rig.Keys(r.target, "Down", "Down")
	r.rig.Paste(r.target, "line one\nline two")
	r.rig.WaitPane(r.target, "line two", 10*time.Second)
	r.rig.Keys(r.target, "Enter")
	res := r.waitResolution(d.ToolID)
	var str string
	if err := json.Unmarshal(res.Result, &str); err != nil || !strings.HasSuffix(str, "the user said:\nline one\rline two") {
		t.Errorf("recorded %s; want the feedback with its newline turned into \\r", res.Result)
	}
	// lab refuses such feedback before any key.
	opt := 2
	if err := validatePlanAnswer(t, conv.Answer{ToolID: d.ToolID, Option: &opt, Feedback: "a\nb"}); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("multi-line feedback: %v; want invalid", err)
	}
}

// validatePlanAnswer validates a plan answer against the plan picker of
// the CLI under test.
func validatePlanAnswer(t testing.TB, a conv.Answer) error {
	return claude.ValidateAnswer(&conv.Dialog{ToolID: a.ToolID, Kind: conv.DialogPlan, Answerable: true}, a, claude.PlanPicker(claudetest.CLIVersion(t)))
}

// belowBanner drops the CLI's welcome banner, whose mascot animates on its
// own, keeping everything from the first prompt line down: the
// conversation, the picker and its cursor.
func belowBanner(pane string) string {
	if i := strings.Index(pane, "\n❯ "); i >= 0 {
		return pane[i:]
	}
	return pane
}
