package codex

import (
	"strings"
	"testing"

	"lab/internal/clikit"
	"lab/internal/conv"
	"lab/internal/foldkit"
)

func TestValidateAnswer(t *testing.T) {
	q := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{
		{Question: "Color?", Options: []conv.Option{{Label: "Red"}, {Label: "Blue"}}},
	}}
	plan := &conv.Dialog{ToolID: "p", Kind: conv.DialogPlan, Answerable: true}
	answered := q.Clone()
	answered.Outcome = &conv.Outcome{Dismissed: true}
	unanswerable := q.Clone()
	unanswerable.Answerable = false
	qa := func(chosen []int, other string) conv.Answer {
		return conv.Answer{ToolID: "q", Answers: []conv.QuestionAnswer{{Chosen: chosen, OtherText: other}}}
	}
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		want conv.ErrorKind // "" for valid
	}{
		{"option", q, qa([]int{1}, ""), ""},
		{"option with notes", q, qa([]int{0}, "a darker red"), ""},
		{"notes alone (none of the above)", q, qa(nil, "teal"), ""},
		{"nothing", q, qa(nil, ""), conv.EInvalid},
		{"two options", q, qa([]int{0, 1}, ""), conv.EInvalid},
		{"out of range", q, qa([]int{2}, ""), conv.EInvalid},
		{"multi-line notes", q, qa([]int{0}, "a\nb"), conv.EInvalid},
		{"control character", q, qa([]int{0}, "a\x1bb"), conv.EInvalid},
		{"blank notes", q, qa(nil, "  "), conv.EInvalid},
		{"huge notes", q, qa(nil, strings.Repeat("x", clikit.MaxFreeText+1)), conv.EInvalid},
		{"answers count", q, conv.Answer{ToolID: "q"}, conv.EInvalid},
		{"plan fields on a question", q, conv.Answer{ToolID: "q", Option: opt(0), Answers: qa([]int{0}, "").Answers}, conv.EInvalid},
		{"no tool id", q, conv.Answer{Answers: qa([]int{0}, "").Answers}, conv.EInvalid},
		{"other dialog", q, conv.Answer{ToolID: "x", Answers: qa([]int{0}, "").Answers}, conv.EConflict},
		{"no dialog", nil, qa([]int{0}, ""), conv.EConflict},
		{"already answered", answered, qa([]int{0}, ""), conv.EConflict},
		{"not answerable", unanswerable, qa([]int{0}, ""), conv.EConflict},
		{"plan approve", plan, conv.Answer{ToolID: "p", Option: opt(0)}, ""},
		{"plan approve fresh", plan, conv.Answer{ToolID: "p", Option: opt(1)}, ""},
		{"plan stay with feedback", plan, conv.Answer{ToolID: "p", Option: opt(2), Feedback: "smaller"}, ""},
		{"plan stay without feedback", plan, conv.Answer{ToolID: "p", Option: opt(2)}, conv.EInvalid},
		{"plan approve with feedback", plan, conv.Answer{ToolID: "p", Option: opt(0), Feedback: "x"}, conv.EInvalid},
		{"plan no option", plan, conv.Answer{ToolID: "p"}, conv.EInvalid},
		{"plan out of range", plan, conv.Answer{ToolID: "p", Option: opt(3)}, conv.EInvalid},
		{"plan row of unknown role", withRows(plan, "Yes, implement this plan", "Maybe"), conv.Answer{ToolID: "p", Option: opt(1)}, conv.EInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateAnswer(c.d, c.a)
			if c.want == "" && err != nil || c.want != "" && conv.KindOf(err) != c.want {
				t.Fatalf("got %v (%s); want %q", err, conv.KindOf(err), c.want)
			}
		})
	}
}

func TestValidatePermission(t *testing.T) {
	p := &conv.Dialog{ToolID: "c", Kind: conv.DialogPermission, Answerable: true, Permission: &conv.Permission{Tool: ToolExecCommand, Options: []conv.PermissionOption{
		{Label: "Yes, proceed", Role: conv.RoleAllowOnce}, {Label: "Yes, and don't ask again", Role: conv.RoleAllowAlways},
		{Label: "No, and tell Codex what to do differently", Role: conv.RoleDeny}, {Label: "Something new", Role: conv.RoleUnknown}}}}
	undressed := &conv.Dialog{ToolID: "c", Kind: conv.DialogPermission, Answerable: true, Permission: &conv.Permission{Tool: ToolExecCommand}}
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		want conv.ErrorKind
	}{
		{"allow", p, conv.Answer{ToolID: "c", Option: opt(0)}, ""},
		{"always", p, conv.Answer{ToolID: "c", Option: opt(1)}, ""},
		{"deny", p, conv.Answer{ToolID: "c", Option: opt(2)}, ""},
		{"deny with feedback", p, conv.Answer{ToolID: "c", Option: opt(2), Feedback: "use /tmp"}, conv.EInvalid},
		{"unknown role", p, conv.Answer{ToolID: "c", Option: opt(3)}, conv.EConflict},
		{"out of range", p, conv.Answer{ToolID: "c", Option: opt(4)}, conv.EInvalid},
		{"no option", p, conv.Answer{ToolID: "c"}, conv.EInvalid},
		{"answers", p, conv.Answer{ToolID: "c", Option: opt(0), Answers: []conv.QuestionAnswer{{}}}, conv.EInvalid},
		{"other call", p, conv.Answer{ToolID: "d", Option: opt(0)}, conv.EConflict},
		{"options unknown", undressed, conv.Answer{ToolID: "c", Option: opt(0)}, conv.EConflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateAnswer(c.d, c.a)
			if c.want == "" && err != nil || c.want != "" && conv.KindOf(err) != c.want {
				t.Fatalf("got %v (%s); want %q", err, conv.KindOf(err), c.want)
			}
		})
	}
}

// What lab meant, re-read through the fold's own outcome derivation,
// equals what the fold derives from the CLI's record of the same answer.
func TestIntendedOutcomeMatchesTheRecord(t *testing.T) {
	d, ids := questionDialog("q", mustJSON(t, formArgs))
	a := conv.Answer{ToolID: "q", Answers: []conv.QuestionAnswer{{Chosen: []int{1}, OtherText: "a darker one"}, {OtherText: "medium"}}}
	recorded := questionOutcome(d.Questions, ids, `{"answers":{"size":{"answers":["None of the above","user_note: medium"]},"color":{"answers":["Blue","user_note: a darker one"]}}}`)
	if want := IntendedOutcome(d, a); !foldkit.OutcomesAgree(conv.DialogQuestion, want, recorded) {
		t.Fatalf("intended %+v; recorded %+v", want, recorded)
	}
	plan := &conv.Dialog{ToolID: "p", Kind: conv.DialogPlan}
	if o := IntendedOutcome(plan, conv.Answer{Option: opt(0)}); o == nil || !o.Approved {
		t.Fatalf("plan approve: %+v", o)
	}
	if o := IntendedOutcome(plan, conv.Answer{Option: opt(2), Feedback: "smaller"}); o == nil || o.Feedback != "smaller" {
		t.Fatalf("plan stay: %+v", o)
	}
	if IntendedOutcome(d, conv.Answer{Answers: []conv.QuestionAnswer{{Chosen: []int{9}}, {}}}) != nil {
		t.Fatal("an out-of-range answer has an intended outcome")
	}
}
