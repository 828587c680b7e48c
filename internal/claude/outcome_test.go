package claude

import (
	"encoding/json"
	"reflect"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

func fxOpts(labels ...string) []conv.Option {
	o := make([]conv.Option, len(labels))
	for i, l := range labels {
		o[i] = conv.Option{Label: l}
	}
	return o
}

var (
	oqDB   = conv.Question{Question: "Which database?", Options: fxOpts("SQLite", "PostgreSQL", "Salt, pepper")}
	oqTop  = conv.Question{Question: "Toppings?", MultiSelect: true, Options: fxOpts("Cheese", "Olives", "Salt, pepper", "Salt")}
	oqDup  = conv.Question{Question: "Dup?", MultiSelect: true, Options: fxOpts("A", "A", "B")}
	oqDup1 = conv.Question{Question: "Dup one?", Options: fxOpts("A", "A", "B")}
	oqSize = conv.Question{Question: "Which \"size\"?", Options: fxOpts("Small", "Large")}
)

func fxRes(q string, chosen []string, other string) conv.QuestionResult {
	if chosen == nil {
		chosen = []string{}
	}
	return conv.QuestionResult{Question: q, Chosen: chosen, OtherText: other}
}

func fxJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func fxAnswers(answers fxObj, extra fxObj) []byte {
	o := fxObj{"questions": []fxObj{}, "answers": answers, "annotations": fxObj{}}
	for k, v := range extra {
		o[k] = v
	}
	return fxJSON(o)
}

func TestQuestionOutcome(t *testing.T) {
	dismissed := &conv.Outcome{Dismissed: true}
	tests := []struct {
		name string
		qs   []conv.Question
		r    foldResolution
		want *conv.Outcome
	}{
		{"single label", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{"Which database?": "PostgreSQL"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", []string{"PostgreSQL"}, "")}}},
		{"single label containing comma-space", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{"Which database?": "Salt, pepper"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", []string{"Salt, pepper"}, "")}}},
		{"single free text verbatim, commas kept", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{"Which database?": "DuckDB, embedded "}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", nil, "DuckDB, embedded ")}}},
		{"single duplicate labels resolve once", []conv.Question{oqDup1},
			foldResolution{result: fxAnswers(fxObj{"Dup one?": "A"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Dup one?", []string{"A"}, "")}}},
		{"multi toggle order kept", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Olives, Cheese"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Olives", "Cheese"}, "")}}},
		{"multi free text leftover", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Cheese, Olives, no anchovies"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Cheese", "Olives"}, "no anchovies")}}},
		{"multi free text with comma-space re-joined", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Olives, no anchovies, please"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Olives"}, "no anchovies, please")}}},
		{"multi label containing comma-space, longest first", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Salt, pepper, Salt, Cheese"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Salt, pepper", "Salt", "Cheese"}, "")}}},
		{"multi leftovers around labels", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Cheese, extra, Olives"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Cheese", "Olives"}, "extra")}}},
		{"multi duplicate labels both chosen", []conv.Question{oqDup},
			foldResolution{result: fxAnswers(fxObj{"Dup?": "A, A"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Dup?", []string{"A", "A"}, "")}}},
		{"multi empty record", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": ""}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", nil, "")}}},
		{"multi recorded as a list", []conv.Question{oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": []string{"Olives", "Salt, pepper", "mine"}}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Toppings?", []string{"Olives", "Salt, pepper"}, "mine")}}},
		{"question missing from answers", []conv.Question{oqDB, oqTop},
			foldResolution{result: fxAnswers(fxObj{"Toppings?": "Cheese"}, nil)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", nil, ""), fxRes("Toppings?", []string{"Cheese"}, "")}}},
		{"form in dialog order with escaped key", []conv.Question{oqDB, oqSize},
			foldResolution{result: []byte(`{"answers":{"Which \"size\"?":"Large","Which database?":"SQLite"}}`)},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", []string{"SQLite"}, ""), fxRes(`Which "size"?`, []string{"Large"}, "")}}},
		{"empty answers (unattended timeout)", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{}, fxObj{"afkTimeoutMs": 60000})}, dismissed},
		{"empty answers without afkTimeoutMs", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{}, nil)}, dismissed},
		{"empty answers with a typed response", []conv.Question{oqDB, oqTop},
			foldResolution{result: fxAnswers(fxObj{}, fxObj{"response": "let's talk first"})},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", nil, "let's talk first"), fxRes("Toppings?", nil, "")}}},
		{"declined: denial kind wins over answers", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{"Which database?": "SQLite"}, nil), denial: "user-rejected"}, dismissed},
		{"declined: rejection string", []conv.Question{oqDB},
			foldResolution{result: fxJSON("User rejected tool use"), denial: "user-rejected", isError: true}, dismissed},
		{"error result", []conv.Question{oqDB},
			foldResolution{result: fxAnswers(fxObj{"Which database?": "SQLite"}, nil), isError: true}, dismissed},
		{"no toolUseResult (interrupt)", []conv.Question{oqDB},
			foldResolution{content: fxJSON("[Request interrupted by user for tool use]"), isError: true}, dismissed},
		{"no toolUseResult, no error", []conv.Question{oqDB}, foldResolution{}, dismissed},
		{"answers not an object", []conv.Question{oqDB},
			foldResolution{result: []byte(`{"answers":"SQLite"}`)}, dismissed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := deriveOutcome(&conv.Dialog{Kind: conv.DialogQuestion, Questions: tc.qs}, tc.r)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s; want %s", fxJSON(got), fxJSON(tc.want))
			}
		})
	}
}

func TestPlanOutcome(t *testing.T) {
	const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n"
	tests := []struct {
		name string
		r    foldResolution
		want *conv.Outcome
	}{
		{"approved object", foldResolution{result: fxJSON(fxObj{"plan": "# P", "isAgent": false})}, &conv.Outcome{Approved: true}},
		{"rejected with feedback", foldResolution{result: fxJSON(rejected + "Add tests first"), denial: "user-rejected", isError: true},
			&conv.Outcome{Feedback: "Add tests first"}},
		{"rejected, 2.1.328 Error: prefix", foldResolution{result: fxJSON("Error: " + rejected + "Use a TTL"), denial: "user-rejected", isError: true},
			&conv.Outcome{Feedback: "Use a TTL"}},
		{"feedback after the last marker only", foldResolution{result: fxJSON(rejected + "first\nthe user said:\nsecond\nline"), denial: "user-rejected"},
			&conv.Outcome{Feedback: "second\nline"}},
		{"empty feedback", foldResolution{result: fxJSON(rejected), denial: "user-rejected"}, &conv.Outcome{}},
		{"declined with Esc", foldResolution{result: fxJSON("User rejected tool use"), denial: "user-rejected", isError: true},
			&conv.Outcome{Dismissed: true}},
		{"object but error", foldResolution{result: fxJSON(fxObj{"plan": "# P"}), isError: true}, &conv.Outcome{Dismissed: true}},
		{"no toolUseResult, approval prose", foldResolution{content: fxJSON("User has approved your plan. You can now start coding.")},
			&conv.Outcome{Approved: true}},
		{"no toolUseResult, rejection prose", foldResolution{content: fxJSON([]fxObj{{"type": "text", "text": rejected + "Smaller"}}), isError: true},
			&conv.Outcome{Feedback: "Smaller"}},
		{"no toolUseResult, approval prose but error", foldResolution{content: fxJSON("User has approved your plan."), isError: true},
			&conv.Outcome{Dismissed: true}},
		{"interrupted", foldResolution{content: fxJSON("[Request interrupted by user for tool use]"), isError: true},
			&conv.Outcome{Dismissed: true}},
		{"prose ignored when toolUseResult is present", foldResolution{result: fxJSON(123), content: fxJSON(rejected + "x")},
			&conv.Outcome{Dismissed: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := deriveOutcome(&conv.Dialog{Kind: conv.DialogPlan, Plan: "# P"}, tc.r)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s; want %s", fxJSON(got), fxJSON(tc.want))
			}
		})
	}
}

func fxInt(i int) *int { return &i }

func TestIntendedOutcome(t *testing.T) {
	qd := &conv.Dialog{Kind: conv.DialogQuestion, Questions: []conv.Question{oqDB, oqTop}}
	plan3 := &conv.Dialog{Kind: conv.DialogPlan, PlanRows: []string{"Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"}}
	planUnknown := &conv.Dialog{Kind: conv.DialogPlan}
	qa := func(chosen []int, other string) conv.QuestionAnswer {
		return conv.QuestionAnswer{Chosen: chosen, OtherText: other}
	}
	tests := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		want *conv.Outcome
	}{
		{"labels by index in toggle order", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa([]int{1}, ""), qa([]int{1, 0}, "")}},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", []string{"PostgreSQL"}, ""), fxRes("Toppings?", []string{"Olives", "Cheese"}, "")}}},
		{"free text on both kinds", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa(nil, "DuckDB"), qa([]int{2}, "no anchovies, please")}},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", nil, "DuckDB"), fxRes("Toppings?", []string{"Salt, pepper"}, "no anchovies, please")}}},
		{"free text equal to a label reads as the label", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa(nil, "SQLite"), qa(nil, "")}},
			&conv.Outcome{Results: []conv.QuestionResult{fxRes("Which database?", []string{"SQLite"}, ""), fxRes("Toppings?", nil, "")}}},
		{"wrong answer count", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa([]int{0}, "")}}, nil},
		{"index out of range", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa([]int{3}, ""), qa(nil, "")}}, nil},
		{"two picks on single-select", qd, conv.Answer{Answers: []conv.QuestionAnswer{qa([]int{0, 1}, ""), qa(nil, "")}}, nil},
		{"plan approve row", plan3, conv.Answer{Option: fxInt(1)}, &conv.Outcome{Approved: true}},
		{"plan feedback row is the last row", plan3, conv.Answer{Option: fxInt(2), Feedback: "smaller"}, &conv.Outcome{Feedback: "smaller"}},
		{"plan row out of range", plan3, conv.Answer{Option: fxInt(3)}, nil},
		{"plan without option", plan3, conv.Answer{Feedback: "x"}, nil},
		{"plan rows unknown, feedback", planUnknown, conv.Answer{Option: fxInt(3), Feedback: "x"}, &conv.Outcome{Feedback: "x"}},
		{"plan rows unknown, no feedback", planUnknown, conv.Answer{Option: fxInt(0)}, &conv.Outcome{Approved: true}},
		{"nil dialog", nil, conv.Answer{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := IntendedOutcome(tc.d, tc.a)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s; want %s", fxJSON(got), fxJSON(tc.want))
			}
		})
	}
}

// TestIntendedMatchesRecorded checks the round trip the desync check relies
// on: what the CLI records for an answer (labels then free text, joined by
// ", ") derives the same outcome IntendedOutcome predicts.
func TestIntendedMatchesRecorded(t *testing.T) {
	d := &conv.Dialog{Kind: conv.DialogQuestion, Questions: []conv.Question{oqDB, oqTop}}
	a := conv.Answer{Answers: []conv.QuestionAnswer{{OtherText: "DuckDB, embedded"}, {Chosen: []int{3, 2}, OtherText: "extra"}}}
	recorded := fxAnswers(fxObj{"Which database?": "DuckDB, embedded", "Toppings?": "Salt, Salt, pepper, extra"}, nil)
	got := deriveOutcome(d, foldResolution{result: recorded})
	if want := IntendedOutcome(d, a); !foldkit.OutcomesAgree(d.Kind, want, got) {
		t.Errorf("recorded %s; intended %s; want them to agree", fxJSON(got), fxJSON(want))
	}
}
