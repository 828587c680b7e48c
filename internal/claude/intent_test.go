package claude

import (
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestFoldIntentDesync(t *testing.T) {
	prompt := fxUser(t, "go", nil)
	ask := fxAsk(t, "toolu_q", fxQDB, fxQTop)
	answered := fxAnswered(t, "toolu_q", fxObj{"Which database should we use?": "SQLite", "Which toppings do you want?": "Olives, Cheese, extra"})
	declined := fxResult(t, "toolu_q", "rejected", true, fxObj{"toolUseResult": "User rejected tool use", "toolDenialKind": "user-rejected"})
	interrupt := fxUser(t, []fxObj{fxText("[Request interrupted by user for tool use]")}, nil)
	plan := fxPlan(t, "toolu_p", "# Plan")
	planApproved := fxResult(t, "toolu_p", "User has approved your plan.", false, fxObj{"toolUseResult": fxObj{"plan": "# Plan"}})
	planRejected := fxResult(t, "toolu_p", "no", true, fxObj{"toolDenialKind": "user-rejected",
		"toolUseResult": "Error: The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nsmaller"})
	after := fxAssistant(t, "end_turn", fxText("ok"))

	qd := &conv.Dialog{Kind: conv.DialogQuestion, Questions: []conv.Question{
		{Question: "Which database should we use?", Options: fxOpts("SQLite", "PostgreSQL", "MySQL")},
		{Question: "Which toppings do you want?", MultiSelect: true, Options: fxOpts("Cheese", "Olives", "Salt, pepper", "Salt")},
	}}
	meant := func(db int, top []int, other string) *conv.Outcome {
		return IntendedOutcome(qd, conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{db}}, {Chosen: top, OtherText: other}}})
	}
	plan3 := &conv.Dialog{Kind: conv.DialogPlan, PlanRows: []string{"Yes, auto", "Yes, manual", "Tell Claude what to change"}}
	meantPlan := func(row int, fb string) *conv.Outcome {
		return IntendedOutcome(plan3, conv.Answer{Option: &row, Feedback: fb})
	}

	tests := []struct {
		name    string
		lines   []string
		intents map[string]*conv.Outcome
		warn    []string // substrings of the one expected warning; nil: none
	}{
		{"as meant", []string{prompt, ask, answered, after}, map[string]*conv.Outcome{"toolu_q": meant(0, []int{1, 0}, "extra")}, nil},
		{"no intent recorded", []string{prompt, ask, answered, after}, nil, nil},
		{"other label", []string{prompt, ask, answered, after}, map[string]*conv.Outcome{"toolu_q": meant(1, []int{1, 0}, "extra")},
			[]string{`lab sent "Which database should we use?" → "PostgreSQL"`, `the transcript recorded "Which database should we use?" → "SQLite"`}},
		{"toggle order", []string{prompt, ask, answered, after}, map[string]*conv.Outcome{"toolu_q": meant(0, []int{0, 1}, "extra")},
			[]string{`"Cheese", "Olives", other "extra"`, `"Olives", "Cheese", other "extra"`}},
		{"other text", []string{prompt, ask, answered, after}, map[string]*conv.Outcome{"toolu_q": meant(0, []int{1, 0}, "")},
			[]string{`→ "Olives", "Cheese";`, `other "extra"`}},
		{"answered but declined", []string{prompt, ask, declined, interrupt}, map[string]*conv.Outcome{"toolu_q": meant(0, []int{1}, "")},
			[]string{"the transcript recorded a dismissal"}},
		{"dismissed by an interrupt", []string{prompt, ask, interrupt}, map[string]*conv.Outcome{"toolu_q": meant(0, []int{1}, "")},
			[]string{"the transcript recorded a dismissal"}},
		{"meant a dismissal", []string{prompt, ask, declined}, map[string]*conv.Outcome{"toolu_q": {Dismissed: true}}, nil},
		{"plan as meant", []string{prompt, plan, planApproved}, map[string]*conv.Outcome{"toolu_p": meantPlan(0, "")}, nil},
		{"plan approve vs reject", []string{prompt, plan, planRejected}, map[string]*conv.Outcome{"toolu_p": meantPlan(1, "")},
			[]string{"plan toolu_p", "lab sent an approval", `recorded a rejection with feedback "smaller"`}},
		{"plan feedback differs", []string{prompt, plan, planRejected}, map[string]*conv.Outcome{"toolu_p": meantPlan(2, "bigger")},
			[]string{`lab sent a rejection with feedback "bigger"`}},
		{"plan feedback as meant", []string{prompt, plan, planRejected}, map[string]*conv.Outcome{"toolu_p": meantPlan(2, "smaller")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFold()
			intents := func(id string) (*conv.Outcome, bool) {
				o, ok := tc.intents[id]
				return o, ok
			}
			f.SetIntents(intents)
			for _, l := range tc.lines {
				f.Write([]byte(l))
			}
			msgs, _ := f.Messages(0, 0, 0)
			var warnings []conv.Message
			resolvedAt := 0
			for _, m := range msgs {
				if m.Kind == conv.KindLifecycle && m.Lifecycle.Level == conv.LevelWarning {
					warnings = append(warnings, m)
				}
				if m.Kind == conv.KindDialog {
					resolvedAt = m.Seq
				}
			}
			if tc.warn == nil {
				if len(warnings) != 0 {
					t.Fatalf("got warning %q; want none", warnings[0].Lifecycle.Text)
				}
				return
			}
			if len(warnings) != 1 {
				t.Fatalf("got %d warnings; want 1 (messages %+v)", len(warnings), msgs)
			}
			w := warnings[0]
			if w.Seq != resolvedAt+1 {
				t.Errorf("warning at seq %d; want %d, right after the resolved dialog", w.Seq, resolvedAt+1)
			}
			for _, s := range tc.warn {
				if !strings.Contains(w.Lifecycle.Text, s) {
					t.Errorf("warning %q; want it to contain %q", w.Lifecycle.Text, s)
				}
			}
			// Deterministic: the same bytes and intents fold the same.
			g := NewFold()
			g.SetIntents(intents)
			g.Write([]byte(strings.Join(tc.lines, "")))
			again, _ := g.Messages(0, 0, 0)
			if len(again) != len(msgs) || again[w.Seq-1].ContentHash != w.ContentHash {
				t.Errorf("refold gave %d messages; want %d with the same warning", len(again), len(msgs))
			}
		})
	}
}
