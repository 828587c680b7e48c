package claude

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updatePanes = flag.Bool("update-panes", false, "rewrite testdata/panes/*.json from the parser")

// TestParseScreenGolden parses every captured pane under testdata/panes and
// compares the result with its golden JSON. The captures come from the real
// CLI (see pane_capture_test.go); regenerate the goldens with
// go test ./internal/claude -run TestParseScreenGolden -update-panes
// and review the diff.
func TestParseScreenGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/panes/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no captured panes under testdata/panes")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(ParseScreen(string(b)), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".txt") + ".json"
			if *updatePanes {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-panes to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("parse of %s differs from %s:\ngot:\n%s\nwant:\n%s", f, golden, got, want)
			}
		})
	}
}

func readPane(t *testing.T, name string) *Screen {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/panes", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return ParseScreen(string(b))
}

// TestParseScreenFacts pins, screen by screen, the facts the recipes rely
// on, independently of the goldens.
func TestParseScreenFacts(t *testing.T) {
	type want struct {
		kind     ScreenKind
		question string
		numbered int
		cursor   int    // cursor row number, -1 for none
		label    string // cursor row label
		box      Box
		ticked   []string
		review   []ReviewItem
	}
	cases := []struct {
		pane string
		want want
	}{
		{"explore-single-fresh", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 1, label: "SQLite"}},
		{"explore-single-row2", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 2, label: "PostgreSQL"}},
		{"explore-single-freetext", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 4, label: "use duckdb instead"}},
		{"explore-single-chat-row", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 5, label: "Chat about this"}},
		{"explore-form-q1", want{kind: ScreenQuestion, question: "Which color do you prefer?", numbered: 4, cursor: 1, label: "Red"}},
		{"explore-form-q2", want{kind: ScreenQuestion, question: "Which sizes?", numbered: 5, cursor: 1, label: "Small", box: Unchecked}},
		{"explore-form3-q2-next", want{kind: ScreenQuestion, question: "Which sizes?", numbered: 5, cursor: SubmitRow, label: "Next", ticked: []string{"tiny"}}},
		{"explore-form-review", want{kind: ScreenReview, numbered: 2, cursor: 1, label: "Submit answers", review: []ReviewItem{
			{"Which color do you prefer?", "Blue"}, {"Which sizes?", "Large, Small"}}}},
		{"explore-review-multi", want{kind: ScreenReview, numbered: 2, cursor: 1, label: "Submit answers", review: []ReviewItem{
			{"Which toppings do you want?", "Olives, Cheese, no anchovies"}}}},
		{"explore-plan", want{kind: ScreenPlan, numbered: 3, cursor: 1, label: "Yes, and use auto mode"}},
		{"explore-plan-feedback", want{kind: ScreenPlan, numbered: 3, cursor: 3, label: "add tests first"}},
		{"explore-prompt-empty", want{kind: ScreenNone, cursor: -1}},
		{"explore-prompt-longtext", want{kind: ScreenNone, cursor: -1}},
	}
	for _, c := range cases {
		t.Run(c.pane, func(t *testing.T) {
			s := readPane(t, c.pane)
			w := c.want
			if s.Kind != w.kind {
				t.Fatalf("kind = %q; want %q", s.Kind, w.kind)
			}
			if w.question != "" && s.Question != w.question {
				t.Errorf("question = %q; want %q", s.Question, w.question)
			}
			if s.Numbered() != w.numbered {
				t.Errorf("numbered rows = %d; want %d", s.Numbered(), w.numbered)
			}
			cur := s.Cursor()
			if w.cursor < 0 {
				if cur != nil {
					t.Errorf("cursor on %+v; want none", *cur)
				}
				return
			}
			if cur == nil {
				t.Fatalf("no cursor; want row %d", w.cursor)
			}
			if cur.Number != w.cursor || cur.Label != w.label {
				t.Errorf("cursor on %d %q; want %d %q", cur.Number, cur.Label, w.cursor, w.label)
			}
			if w.box != NoBox && cur.Box != w.box {
				t.Errorf("cursor box = %v; want %v", cur.Box, w.box)
			}
			if w.ticked != nil {
				if err := checkTicked(s, w.ticked); err != nil {
					t.Error(err)
				}
			}
			if w.review != nil {
				if len(s.Review) != len(w.review) {
					t.Fatalf("review = %+v; want %+v", s.Review, w.review)
				}
				for i := range w.review {
					if s.Review[i] != w.review[i] {
						t.Errorf("review[%d] = %+v; want %+v", i, s.Review[i], w.review[i])
					}
				}
			}
		})
	}
}

func TestParseScreenSynthetic(t *testing.T) {
	t.Run("plan body with check boxes above the picker", func(t *testing.T) {
		s := ParseScreen(strings.Join([]string{
			"   Here is Claude's plan:",
			" ☐ write tests",
			"   1. Do a thing",
			"   2. Do another",
			"  ────────────────────────────────────────",
			"   Claude has written up a plan and is ready to execute. Would you like to proceed?",
			"",
			"   ❯ 1. Yes, and use auto mode",
			"     2. Yes, manually approve edits",
			"     3. Tell Claude what to change",
			"        shift+tab to approve with this feedback",
		}, "\n"))
		if s.Kind != ScreenPlan || s.Numbered() != 3 || s.Cursor().Number != 1 {
			t.Fatalf("got %+v; want the plan picker with 3 rows, cursor on 1", s)
		}
		if got := s.Rows[2].More; len(got) != 1 || got[0] != "shift+tab to approve with this feedback" {
			t.Errorf("feedback row continuation = %q", got)
		}
	})
	t.Run("numbered list in the question text", func(t *testing.T) {
		s := ParseScreen(strings.Join([]string{
			"────────────────────────────────────────",
			" ☐ Steps",
			"",
			"Which of these?",
			"1. first idea",
			"2. second idea",
			"",
			"❯ 1. A",
			"  2. B",
			"  3. Type something.",
			"────────────────────────────────────────",
			"  4. Chat about this",
			"",
			"Enter to select · ↑/↓ to navigate · Esc to cancel",
		}, "\n"))
		if s.Kind != ScreenQuestion || s.Numbered() != 4 || s.Rows[0].Label != "A" {
			t.Fatalf("got %+v; want 4 rows starting at A", s)
		}
		if s.Question != "Which of these? 1. first idea 2. second idea" {
			t.Errorf("question = %q", s.Question)
		}
	})
	t.Run("wrapped free text", func(t *testing.T) {
		s := ParseScreen(strings.Join([]string{
			"←  ☐ Toppings  ✔ Submit  →",
			"",
			"Which toppings?",
			"",
			"  1. [ ] Cheese",
			"         Mozzarella",
			"❯ 2. [✔] a very long answer that the",
			"         terminal wrapped",
			"     Submit",
		}, "\n"))
		c := s.Cursor()
		if c == nil || !c.RowShows("a very long answer that the terminal wrapped") {
			t.Fatalf("cursor row %+v does not show the wrapped text", c)
		}
		if c.RowShows("a very long answer") {
			t.Error("RowShows accepted a prefix of the row's text")
		}
		if !s.Rows[0].RowShows("Cheese") {
			t.Error("an option row with a description must show its label")
		}
		if len(s.Tabs) != 2 || s.Tabs[0] != (Tab{Label: "Toppings"}) || s.Tabs[1] != (Tab{Label: "Submit", Done: true}) {
			t.Errorf("tabs = %+v", s.Tabs)
		}
	})
	t.Run("empty capture", func(t *testing.T) {
		if s := ParseScreen(""); s.Kind != ScreenNone || s.Cursor() != nil {
			t.Fatalf("got %+v; want nothing", s)
		}
	})
}

func FuzzParseScreen(f *testing.F) {
	files, _ := filepath.Glob("testdata/panes/*.txt")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		scr := ParseScreen(s)
		want := 1
		for _, r := range scr.Rows {
			if r.Cursor && !strings.Contains(s, cursorGlyph) {
				t.Fatalf("cursor row %+v without a cursor glyph in the input", r)
			}
			if r.Number == SubmitRow {
				continue
			}
			if r.Number != want {
				t.Fatalf("rows numbered %+v; want 1..n in order", scr.Rows)
			}
			want++
		}
	})
}
