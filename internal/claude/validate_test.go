package claude

import (
	"strings"
	"testing"

	"lab/internal/clikit"
	"lab/internal/conv"
)

func TestValidateAnswer(t *testing.T) {
	g := PlanPicker("2.1.328")
	resolved := qdialog(qDB)
	resolved.Outcome = &conv.Outcome{Dismissed: true}
	unanswerable := qdialog(qDB)
	unanswerable.Answerable = false
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		kind conv.ErrorKind // "" for valid
		msg  string         // substring of the message
	}{
		{"single option", qdialog(qDB), ans(pick(1)), "", ""},
		{"single free text", qdialog(qDB), ans(other("duckdb")), "", ""},
		{"multi options and text", qdialog(qTops), ans(other("anchovies", 3, 0)), "", ""},
		{"multi text only", qdialog(qTops), ans(other("anchovies")), "", ""},
		{"form", qdialog(qColor, qSize), ans(pick(0), pick(1, 2)), "", ""},
		{"plan approve", pdialog(), plan(0, ""), "", ""},
		{"plan approve manual", pdialog(), plan(1, ""), "", ""},
		{"plan feedback", pdialog(), plan(2, "add tests"), "", ""},

		{"no tool id", qdialog(qDB), conv.Answer{Answers: []conv.QuestionAnswer{pick(0)}}, conv.EInvalid, "tool_id"},
		{"no dialog", nil, ans(pick(0)), conv.EConflict, "no dialog"},
		{"stale tool id", qdialog(qDB), conv.Answer{ToolID: "toolu_old", Answers: []conv.QuestionAnswer{pick(0)}}, conv.EConflict, "not toolu_old"},
		{"resolved", resolved, ans(pick(0)), conv.EConflict, "already resolved"},
		{"unanswerable", unanswerable, ans(pick(0)), conv.EConflict, "terminal"},

		{"too few answers", qdialog(qColor, qSize), ans(pick(0)), conv.EInvalid, "1 answers for 2"},
		{"too many answers", qdialog(qDB), ans(pick(0), pick(1)), conv.EInvalid, "2 answers for 1"},
		{"index out of range", qdialog(qDB), ans(pick(3)), conv.EInvalid, "out of range"},
		{"free-text row as index", qdialog(qDB), ans(pick(3)), conv.EInvalid, "out of range"},
		{"negative index", qdialog(qDB), ans(pick(-1)), conv.EInvalid, "out of range"},
		{"duplicate", qdialog(qTops), ans(pick(1, 1)), conv.EInvalid, "twice"},
		{"several on single", qdialog(qDB), ans(pick(0, 1)), conv.EInvalid, "takes one option"},
		{"option and text on single", qdialog(qDB), ans(other("x", 0)), conv.EInvalid, "exactly one choice"},
		{"nothing on single", qdialog(qDB), ans(pick()), conv.EInvalid, "exactly one choice"},
		{"nothing on multi", qdialog(qTops), ans(pick()), conv.EInvalid, "at least one"},
		{"multi-line text", qdialog(qDB), ans(other("a\nb")), conv.EInvalid, "single line"},
		{"carriage return", qdialog(qDB), ans(other("a\rb")), conv.EInvalid, "single line"},
		{"tab", qdialog(qDB), ans(other("a\tb")), conv.EInvalid, "control character"},
		{"escape", qdialog(qDB), ans(other("a\x1b[Bb")), conv.EInvalid, "control character"},
		{"C1 control", qdialog(qDB), ans(other("a\u0085b")), conv.EInvalid, "control character"},
		{"line separator", qdialog(qDB), ans(other("a\u2028b")), conv.EInvalid, "single line"},
		{"blank text", qdialog(qDB), ans(other("   ")), conv.EInvalid, "blank"},
		{"invalid utf8", qdialog(qDB), ans(other("a\xffb")), conv.EInvalid, "UTF-8"},
		{"huge text", qdialog(qDB), ans(other(strings.Repeat("x", clikit.MaxFreeText+1))), conv.EInvalid, "at most"},
		{"text equal to a label", qdialog(qDB), ans(other("MySQL")), conv.EInvalid, "choose the option"},
		{"multi text segment equal to a label", qdialog(qTops), ans(other("extra, Olives", 0)), conv.EInvalid, "choose the option"},
		{"option on a question", qdialog(qDB), conv.Answer{ToolID: "toolu_1", Answers: []conv.QuestionAnswer{pick(0)}, Option: new(int)}, conv.EInvalid, "not option"},

		{"plan without option", pdialog(), conv.Answer{ToolID: "toolu_1"}, conv.EInvalid, "option is required"},
		{"plan option out of range", pdialog(), plan(3, ""), conv.EInvalid, "out of range"},
		{"plan negative option", pdialog(), plan(-1, ""), conv.EInvalid, "out of range"},
		{"plan feedback row without text", pdialog(), plan(2, ""), conv.EInvalid, "needs feedback"},
		{"plan feedback on approve", pdialog(), plan(0, "but why"), conv.EInvalid, "feedback goes only"},
		{"plan multi-line feedback", pdialog(), plan(2, "a\nb"), conv.EInvalid, "single line"},
		{"plan with answers", pdialog(), conv.Answer{ToolID: "toolu_1", Answers: []conv.QuestionAnswer{pick(0)}}, conv.EInvalid, "not answers"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateAnswer(c.d, c.a, g)
			if c.kind == "" {
				if err != nil {
					t.Fatalf("got %v; want valid", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("got nil; want a %s error", c.kind)
			}
			if k := conv.KindOf(err); k != c.kind {
				t.Errorf("kind = %s; want %s (%v)", k, c.kind, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("message %q; want it to mention %q", err, c.msg)
			}
		})
	}
}

// TestValidatePlanOlderGeometry: on 2.1.198 the feedback row is row 3 and
// row 2 (refine with Ultraplan) is never chosen: lab cannot tell what it
// does, which is a conflict (answer at the terminal), not a bad request.
func TestValidatePlanOlderGeometry(t *testing.T) {
	g := PlanPicker("2.1.198")
	if err := ValidateAnswer(pdialog(), plan(3, "smaller steps"), g); err != nil {
		t.Errorf("feedback on row 3: %v; want valid", err)
	}
	if err := ValidateAnswer(pdialog(), plan(2, ""), g); conv.KindOf(err) != conv.EConflict {
		t.Errorf("row 2 on 2.1.198: %v; want a conflict", err)
	}
	if err := ValidateAnswer(pdialog(), plan(2, "x"), g); conv.KindOf(err) != conv.EConflict {
		t.Errorf("feedback on row 2 of 2.1.198: %v; want a conflict", err)
	}
}

func TestPlanPicker(t *testing.T) {
	cases := []struct {
		version  string
		rows     int
		feedback int
	}{
		{"2.1.328", 3, 2},
		{"2.1.328 (Claude Code)", 3, 2},
		{"2.1.198", 4, 3},
		{"2.1.250", 4, 3}, // between: the newest known not newer
		{"2.1.100", 4, 3}, // older than all known: the oldest
		{"2.2.0", 3, 2},   // newer: the newest
		{"", 3, 2},        // unknown: the newest
		{"garbage", 3, 2},
	}
	for _, c := range cases {
		g := PlanPicker(c.version)
		if len(g.Rows) != c.rows || g.Feedback != c.feedback {
			t.Errorf("PlanPicker(%q) = %d rows, feedback %d; want %d, %d", c.version, len(g.Rows), g.Feedback, c.rows, c.feedback)
		}
		if g.IsApprove(g.Feedback) {
			t.Errorf("PlanPicker(%q): the feedback row approves", c.version)
		}
	}
}
