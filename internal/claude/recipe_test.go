package claude

import (
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

func opts(labels ...string) []conv.Option {
	var o []conv.Option
	for _, l := range labels {
		o = append(o, conv.Option{Label: l, Description: "about " + l})
	}
	return o
}

var (
	qDB    = conv.Question{Question: "Which database should we use?", Header: "Database", Options: opts("SQLite", "PostgreSQL", "MySQL")}
	qTops  = conv.Question{Question: "Which toppings do you want?", Header: "Toppings", MultiSelect: true, Options: opts("Cheese", "Olives", "Mushrooms", "Peppers")}
	qColor = conv.Question{Question: "Which color do you prefer?", Header: "Color", Options: opts("Red", "Blue", "Green")}
	qSize  = conv.Question{Question: "Which sizes should we stock?", Header: "Size", MultiSelect: true, Options: opts("Small", "Medium", "Large")}
)

func qdialog(qs ...conv.Question) *conv.Dialog {
	return &conv.Dialog{ToolID: "toolu_1", Kind: conv.DialogQuestion, Questions: qs, Answerable: true}
}

func pdialog() *conv.Dialog {
	return &conv.Dialog{ToolID: "toolu_1", Kind: conv.DialogPlan, Plan: "# Plan", Answerable: true}
}

func ans(qas ...conv.QuestionAnswer) conv.Answer { return conv.Answer{ToolID: "toolu_1", Answers: qas} }
func pick(c ...int) conv.QuestionAnswer          { return conv.QuestionAnswer{Chosen: c} }
func other(t string, c ...int) conv.QuestionAnswer {
	return conv.QuestionAnswer{Chosen: c, OtherText: t}
}
func plan(o int, fb string) conv.Answer {
	return conv.Answer{ToolID: "toolu_1", Option: &o, Feedback: fb}
}

// render writes a recipe compactly: keys by name, pastes as paste(...),
// checkpoints as [cursor-row] (S for the Submit row), commit with !.
func render(steps []Step) string {
	var parts []string
	for _, s := range steps {
		switch s.Kind {
		case agent.StepKey:
			k := s.Key
			if s.Commit {
				k += "!"
			}
			parts = append(parts, k)
		case agent.StepPaste:
			parts = append(parts, "paste("+s.Text+")")
		case agent.StepExpect:
			e := s.Check.(*Expect)
			c := "S"
			if e.Cursor != SubmitRow {
				c = string(rune('0' + e.Cursor))
			}
			prefix := map[ScreenKind]string{ScreenQuestion: "", ScreenReview: "review:", ScreenPlan: "plan:"}[e.Kind]
			parts = append(parts, "["+prefix+c+"]")
		}
	}
	return strings.Join(parts, " ")
}

func TestRecipe(t *testing.T) {
	g := PlanPicker("2.1.328")
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		want string
	}{
		{"single option 0", qdialog(qDB), ans(pick(0)), "[1] [1] Enter!"},
		{"single last option", qdialog(qDB), ans(pick(2)), "[1] Down Down [3] Enter!"},
		{"single free text", qdialog(qDB), ans(other("duckdb")), "[1] Down Down Down [4] paste(duckdb) [4] Enter!"},
		{"multi two in chosen order", qdialog(qTops), ans(pick(2, 0)),
			"[1] Down Down [3] Space Up Up [1] Space Down Down Down Down Down [S] Enter [review:1] Enter!"},
		{"multi with free text", qdialog(qTops), ans(other("no anchovies", 1)),
			"[1] Down [2] Space Down Down Down [5] paste(no anchovies) [5] Down [S] Enter [review:1] Enter!"},
		{"multi free text only", qdialog(qTops), ans(other("anchovies")),
			"[1] Down Down Down Down [5] paste(anchovies) [5] Down [S] Enter [review:1] Enter!"},
		{"form single then multi", qdialog(qColor, qSize), ans(pick(1), pick(2, 0)),
			"[1] Down [2] Enter [1] Down Down [3] Space Up Up [1] Space Down Down Down Down [S] Enter [review:1] Enter!"},
		{"form free text then multi text", qdialog(qColor, qSize), ans(other("teal"), other("tiny")),
			"[1] Down Down Down [4] paste(teal) [4] Enter [1] Down Down Down [4] paste(tiny) [4] Down [S] Enter [review:1] Enter!"},
		{"plan approve row 0", pdialog(), plan(0, ""), "[plan:1] [plan:1] Enter!"},
		{"plan approve row 1", pdialog(), plan(1, ""), "[plan:1] Down [plan:2] Enter!"},
		{"plan feedback", pdialog(), plan(2, "add tests"), "[plan:1] Down Down [plan:3] paste(add tests) [plan:3] Enter!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps, err := Recipe(c.d, c.a, g)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(steps); got != c.want {
				t.Errorf("recipe:\ngot  %s\nwant %s", got, c.want)
			}
			commits := 0
			for i, s := range steps {
				if s.Commit {
					commits++
					if i != len(steps)-1 {
						t.Errorf("commit at step %d of %d; want last", i, len(steps))
					}
					if i == 0 || steps[i-1].Kind != agent.StepExpect {
						t.Error("the committing key is not preceded by a checkpoint")
					}
				}
				if s.Kind == agent.StepKey && (s.Key == "Space" || s.Key == "Enter") || s.Kind == agent.StepPaste {
					if i == 0 || steps[i-1].Kind != agent.StepExpect {
						t.Errorf("step %d (%s) changes state without a checkpoint before it", i, s)
					}
				}
			}
			if commits != 1 {
				t.Errorf("%d committing keys; want 1", commits)
			}
		})
	}
}

// TestRecipeReviewItems pins what the review checkpoint expects: answers
// joined like the transcript records them, in toggle order.
func TestRecipeReviewItems(t *testing.T) {
	steps, err := Recipe(qdialog(qColor, qSize), ans(other("teal"), other("tiny", 2, 0)), PlanPicker(""))
	if err != nil {
		t.Fatal(err)
	}
	last := steps[len(steps)-2].Check.(*Expect)
	want := []ReviewItem{{qColor.Question, "teal"}, {qSize.Question, "Large, Small, tiny"}}
	if len(last.Review) != 2 || last.Review[0] != want[0] || last.Review[1] != want[1] {
		t.Errorf("review = %+v; want %+v", last.Review, want)
	}
}

// TestRecipeAgainstCapturedScreens plays the checkpoints of a recipe
// against real captures of the screens they expect.
func TestRecipeAgainstCapturedScreens(t *testing.T) {
	db := "Which database should we use?"
	sizes := "Which sizes should we stock?"
	cases := []struct {
		pane string
		e    Expect
		ok   bool
	}{
		{"single-fresh", Expect{Kind: ScreenQuestion, Question: db, Cursor: 1}, true},
		{"single-fresh", Expect{Kind: ScreenQuestion, Question: db, Cursor: 1, Label: "SQLite"}, true},
		{"single-row2", Expect{Kind: ScreenQuestion, Question: db, Cursor: 1, Label: "SQLite"}, false},
		{"single-row2", Expect{Kind: ScreenQuestion, Question: db, Cursor: 2, Label: "SQLite"}, false},
		{"single-row2", Expect{Kind: ScreenQuestion, Question: "Which crust do you like?", Cursor: 2}, false},
		{"single-freetext-typed", Expect{Kind: ScreenQuestion, Question: db, Cursor: 4, Label: "DuckDB, embedded"}, true},
		{"single-freetext-typed", Expect{Kind: ScreenQuestion, Question: db, Cursor: 4, Label: "DuckDB"}, false},
		{"multi-ticked", Expect{Kind: ScreenQuestion, Question: "Which toppings do you want?", Cursor: 2, Label: "Olives", Box: Unchecked}, false},
		{"multi-fresh", Expect{Kind: ScreenQuestion, Question: "Which toppings do you want?", Cursor: 1, Checked: []string{}}, true},
		{"form3-q2-next-row", Expect{Kind: ScreenQuestion, Question: sizes, Cursor: SubmitRow, Checked: []string{"Medium"}}, true},
		{"form3-q2-next-row", Expect{Kind: ScreenQuestion, Question: sizes, Cursor: SubmitRow, Checked: []string{"Medium", "Small"}}, false},
		{"form3-q2-next-row", Expect{Kind: ScreenQuestion, Question: sizes, Cursor: SubmitRow, Checked: []string{}}, false},
		{"form3-review", Expect{Kind: ScreenReview, Cursor: 1, Label: "Submit answers", Review: []ReviewItem{
			{"Which color do you prefer?", "teal"}, {sizes, "Medium"}, {"Which crust do you like?", "Thick"}}}, true},
		{"form3-review", Expect{Kind: ScreenReview, Cursor: 1, Label: "Submit answers", Review: []ReviewItem{
			{"Which color do you prefer?", "teal"}, {sizes, "Medium"}, {"Which crust do you like?", "Thin"}}}, false},
		{"plan-fresh", Expect{Kind: ScreenPlan, Rows: 3, Cursor: 1}, true},
		{"plan-fresh", Expect{Kind: ScreenPlan, Rows: 4, Cursor: 1}, false},
		{"plan-feedback-typed", Expect{Kind: ScreenPlan, Rows: 3, Cursor: 3, Label: "Please add tests first"}, true},
		{"permission-prompt", Expect{Kind: ScreenPlan, Rows: 4, Cursor: 1}, false},
		{"prompt-empty", Expect{Kind: ScreenPlan, Rows: 3, Cursor: 1}, false},
	}
	for _, c := range cases {
		err := c.e.Check(readPane(t, c.pane))
		if (err == nil) != c.ok {
			t.Errorf("%s with %+v: got %v; want ok=%v", c.pane, c.e, err, c.ok)
		}
	}
}
