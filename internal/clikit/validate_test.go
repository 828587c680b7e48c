package clikit

import (
	"errors"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestCheckFreeText(t *testing.T) {
	tests := []struct {
		text string
		want string // substring of the error; "" for none
	}{
		{"a typed answer, with ünïcode", ""},
		{strings.Repeat("x", MaxFreeText), ""},
		{strings.Repeat("x", MaxFreeText+1), "at most"},
		{"  \t ", "blank"},
		{"two\nlines", "single line"},
		{"carriage\rreturn", "single line"},
		{"line\u2028separator", "single line"},
		{"a bell\a", "control character"},
		{"bad \xff byte", "UTF-8"},
	}
	for _, tc := range tests {
		err := CheckFreeText(tc.text)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckFreeText(%.20q) = %v; want %q", tc.text, err, tc.want)
		}
	}
}

// kind is the error's kind, "" for no error.
func kind(err error) conv.ErrorKind {
	if err == nil {
		return ""
	}
	return conv.KindOf(err)
}

func TestCheckTargetAndQuestions(t *testing.T) {
	pending := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true,
		Questions: []conv.Question{{Question: "A?"}, {Question: "B?"}}}
	resolved := *pending
	resolved.Outcome = &conv.Outcome{Dismissed: true}
	unanswerable := *pending
	unanswerable.Answerable = false
	two := []conv.QuestionAnswer{{Chosen: []int{0}}, {OtherText: "x"}}
	one := 1
	tests := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		want conv.ErrorKind // "" for none
	}{
		{"answers", pending, conv.Answer{ToolID: "q", Answers: two}, ""},
		{"no tool_id", pending, conv.Answer{Answers: two}, conv.EInvalid},
		{"no dialog", nil, conv.Answer{ToolID: "q"}, conv.EConflict},
		{"another dialog", pending, conv.Answer{ToolID: "p", Answers: two}, conv.EConflict},
		{"resolved", &resolved, conv.Answer{ToolID: "q", Answers: two}, conv.EConflict},
		{"not answerable", &unanswerable, conv.Answer{ToolID: "q", Answers: two}, conv.EConflict},
		{"an option", pending, conv.Answer{ToolID: "q", Answers: two, Option: &one}, conv.EInvalid},
		{"too few answers", pending, conv.Answer{ToolID: "q", Answers: two[:1]}, conv.EInvalid},
		{"the CLI's check fails", pending, conv.Answer{ToolID: "q", Answers: []conv.QuestionAnswer{{}, {}}}, conv.EInvalid},
	}
	check := func(q conv.Question, qa conv.QuestionAnswer) error {
		if len(qa.Chosen) == 0 && qa.OtherText == "" {
			return errors.New("no choice")
		}
		return nil
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTarget(tc.d, tc.a)
			if err == nil {
				err = CheckQuestions(tc.d, tc.a, check)
			}
			if kind(err) != tc.want {
				t.Errorf("got %v; want kind %q", err, tc.want)
			}
		})
	}
	err := CheckQuestions(pending, conv.Answer{ToolID: "q", Answers: []conv.QuestionAnswer{{Chosen: []int{0}}, {}}}, check)
	if err == nil || !strings.Contains(err.Error(), "question 2: no choice") {
		t.Errorf("got %v; want the CLI's error on question 2", err)
	}
}

func TestPermissionOption(t *testing.T) {
	p := &conv.Permission{Options: []conv.PermissionOption{
		{Label: "Yes", Role: conv.RoleAllowOnce},
		{Label: "Something new", Role: conv.RoleUnknown},
	}}
	at := func(i int) conv.Answer { return conv.Answer{ToolID: "t", Option: &i} }
	tests := []struct {
		name string
		p    *conv.Permission
		a    conv.Answer
		want conv.ErrorKind
	}{
		{"a known option", p, at(0), ""},
		{"no option", p, conv.Answer{ToolID: "t"}, conv.EInvalid},
		{"options not read yet", &conv.Permission{}, at(0), conv.EConflict},
		{"out of range", p, at(2), conv.EInvalid},
		{"negative", p, at(-1), conv.EInvalid},
		{"a role lab does not know", p, at(1), conv.EConflict},
		{"answers", p, conv.Answer{ToolID: "t", Option: new(int), Answers: []conv.QuestionAnswer{{}}}, conv.EInvalid},
	}
	for _, tc := range tests {
		opt, i, err := PermissionOption(tc.p, tc.a, "no answers here")
		if len(tc.a.Answers) > 0 && (err == nil || err.Error() != "no answers here") {
			t.Errorf("%s: got %v; want the caller's message", tc.name, err)
		}
		if kind(err) != tc.want || err == nil && (i != *tc.a.Option || opt != tc.p.Options[i]) {
			t.Errorf("%s: got %+v, %d, %v; want kind %q", tc.name, opt, i, err, tc.want)
		}
	}
}

func TestCheckAnswerDispatchesByKind(t *testing.T) {
	var called []string
	r := Rules{
		Question:   func(conv.Question, conv.QuestionAnswer) error { called = append(called, "question"); return nil },
		Plan:       func(*conv.Dialog, conv.Answer) error { called = append(called, "plan"); return nil },
		Permission: func(*conv.Permission, conv.Answer) error { called = append(called, "permission"); return nil },
	}
	one := 0
	for _, d := range []*conv.Dialog{
		{ToolID: "t", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{{Question: "q"}}},
		{ToolID: "t", Kind: conv.DialogPlan, Answerable: true},
		{ToolID: "t", Kind: conv.DialogPermission, Answerable: true, Permission: &conv.Permission{}},
	} {
		a := conv.Answer{ToolID: "t", Option: &one}
		if d.Kind == conv.DialogQuestion {
			a = conv.Answer{ToolID: "t", Answers: []conv.QuestionAnswer{{}}}
		}
		if err := CheckAnswer(d, a, r); err != nil {
			t.Fatalf("%s: %v", d.Kind, err)
		}
	}
	if strings.Join(called, ",") != "question,plan,permission" {
		t.Fatalf("called %v; want each kind's rule once", called)
	}
	if err := CheckAnswer(&conv.Dialog{ToolID: "t", Kind: "other", Answerable: true}, conv.Answer{ToolID: "t"}, r); kind(err) != conv.EConflict {
		t.Fatalf("an unknown kind: %v; want a conflict", err)
	}
	if err := CheckAnswer(&conv.Dialog{ToolID: "t", Kind: conv.DialogPlan}, conv.Answer{ToolID: "u"}, r); kind(err) != conv.EConflict || len(called) != 3 {
		t.Fatalf("another target: %v; want a conflict before any rule", err)
	}
}
