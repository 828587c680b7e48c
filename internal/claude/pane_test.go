package claude

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/clikit"
)

var updatePanes = flag.Bool("update-panes", false, "rewrite the panes/*.json goldens of every fixture set from the parser")

// TestParseScreenGolden parses every captured pane of every fixture set
// (testdata/panes, testdata/v*/panes) and compares the result with its
// golden JSON. The captures come from the real CLI (see
// pane_capture_test.go); regenerate the goldens with
// go test ./internal/claude -run TestParseScreenGolden -update-panes
// and review the diff.
func TestParseScreenGolden(t *testing.T) {
	var files []string
	for _, set := range fixtureSets {
		fs, err := filepath.Glob(set.path("panes", "*.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			t.Fatalf("no captured panes under %s", set.path("panes"))
		}
		files = append(files, fs...)
	}
	for _, f := range files {
		name := filepath.ToSlash(strings.TrimSuffix(f, ".txt"))
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

// readPane parses a pane of the oldest fixture set (2.1.328).
func readPane(t *testing.T, name string) *Screen {
	t.Helper()
	return ParseScreen(readSetPane(t, fixtureSets[0], name))
}

// readSetPane reads a captured pane of one fixture set.
func readSetPane(t *testing.T, set fixtureSet, name string) string {
	t.Helper()
	b, err := os.ReadFile(set.path("panes", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseScreenFacts pins, screen by screen and for every fixture set,
// the facts the recipes rely on, independently of the goldens. From
// 2.1.331 on the pickers are drawn at the bottom of the pane with blank
// lines above them; the facts are the same.
func TestParseScreenFacts(t *testing.T) {
	type want = screenFacts
	cases := []struct {
		pane string
		want want
	}{
		{"single-fresh", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 1, label: "SQLite"}},
		{"single-row2", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 2, label: "PostgreSQL"}},
		{"single-freetext-row", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 4, label: "Type something."}},
		{"single-freetext-typed", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 4, label: "DuckDB, embedded"}},
		{"single-chat-row", want{kind: ScreenQuestion, question: "Which database should we use?", numbered: 5, cursor: 5, label: "Chat about this"}},
		{"multi-fresh", want{kind: ScreenQuestion, question: "Which toppings do you want?", numbered: 6, cursor: 1, label: "Cheese", box: Unchecked, ticked: []string{}}},
		{"multi-ticked", want{kind: ScreenQuestion, question: "Which toppings do you want?", numbered: 6, cursor: 2, label: "Olives", box: Checked, ticked: []string{"Olives"}}},
		{"multi-freetext-typed", want{kind: ScreenQuestion, question: "Which toppings do you want?", numbered: 6, cursor: 5, label: "no anchovies", box: Checked, ticked: []string{"Olives", "no anchovies"}}},
		{"multi-submit-row", want{kind: ScreenQuestion, question: "Which toppings do you want?", numbered: 6, cursor: SubmitRow, label: "Submit", ticked: []string{"no anchovies", "Olives"}}},
		{"multi-review", want{kind: ScreenReview, numbered: 2, cursor: 1, label: "Submit answers", review: []ReviewItem{
			{"Which toppings do you want?", "Olives, no anchovies"}}}},
		{"form3-q1", want{kind: ScreenQuestion, question: "Which color do you prefer?", numbered: 5, cursor: 1, label: "Red"}},
		{"form3-q1-freetext", want{kind: ScreenQuestion, question: "Which color do you prefer?", numbered: 5, cursor: 4, label: "teal"}},
		{"form3-q2", want{kind: ScreenQuestion, question: "Which sizes should we stock?", numbered: 5, cursor: 1, label: "Small", box: Unchecked, ticked: []string{}}},
		{"form3-q2-next-row", want{kind: ScreenQuestion, question: "Which sizes should we stock?", numbered: 5, cursor: SubmitRow, label: "Next", ticked: []string{"Medium"}}},
		{"form3-q3", want{kind: ScreenQuestion, question: "Which crust do you like?", numbered: 4, cursor: 1, label: "Thin"}},
		{"form3-review", want{kind: ScreenReview, numbered: 2, cursor: 1, label: "Submit answers", review: []ReviewItem{
			{"Which color do you prefer?", "teal"}, {"Which sizes should we stock?", "Medium"}, {"Which crust do you like?", "Thick"}}}},
		{"plan-fresh", want{kind: ScreenPlan, numbered: 3, cursor: 1, label: "Yes, and use auto mode"}},
		{"plan-row2", want{kind: ScreenPlan, numbered: 3, cursor: 2, label: "Yes, manually approve edits"}},
		{"plan-feedback-typed", want{kind: ScreenPlan, numbered: 3, cursor: 3, label: "Please add tests first"}},
		{"permission-prompt", want{kind: ScreenPermission, numbered: 4, cursor: 1, label: "Yes"}},
		{"permission-deny-row", want{kind: ScreenPermission, numbered: 4, cursor: 4, label: "No"}},
		{"permission-deny-amend", want{kind: ScreenPermission, numbered: 4, cursor: 4, label: "No, and tell Claude what to do differently"}},
		{"permission-deny-typed", want{kind: ScreenPermission, numbered: 4, cursor: 4, label: "No, Use mkdir instead"}},
		{"permission-rule", want{kind: ScreenPermission, numbered: 4, cursor: 1, label: "Yes"}},
		{"permission-rule-row2", want{kind: ScreenPermission, numbered: 4, cursor: 2, label: "Yes, and don’t ask again for: sh -c 'echo lab-twice'"}},
		{"permission-edit", want{kind: ScreenPermission, numbered: 3, cursor: 1, label: "Yes"}},
		{"permission-write", want{kind: ScreenPermission, numbered: 3, cursor: 1, label: "Yes"}},
		{"permission-fetch", want{kind: ScreenPermission, numbered: 3, cursor: 1, label: "Yes"}},
		{"trust-fresh", want{kind: ScreenNone, cursor: -1}},
		{"trust-yes-row", want{kind: ScreenNone, cursor: -1}},
		{"prompt-empty", want{kind: ScreenNone, cursor: -1}},
		{"prompt-after-decline", want{kind: ScreenNone, cursor: -1}},
		{"prompt-busy", want{kind: ScreenNone, cursor: -1}},
		{"prompt-typed", want{kind: ScreenNone, cursor: -1}},
	}
	for _, set := range fixtureSets {
		for _, c := range cases {
			t.Run(set.version+"/"+c.pane, func(t *testing.T) {
				checkScreenFacts(t, ParseScreen(readSetPane(t, set, c.pane)), c.want)
			})
		}
	}
}

// screenFacts is what TestParseScreenFacts expects of one screen.
type screenFacts struct {
	kind     ScreenKind
	question string
	numbered int
	cursor   int    // cursor row number, -1 for none
	label    string // cursor row label
	box      Box
	ticked   []string
	review   []ReviewItem
}

func checkScreenFacts(t *testing.T, s *Screen, w screenFacts) {
	t.Helper()
	if s.Kind != w.kind {
		t.Fatalf("kind = %q; want %q", s.Kind, w.kind)
	}
	if w.kind != ScreenNone && s.Kind == ScreenQuestion && s.Rows[len(s.Rows)-1].Label != "Chat about this" {
		t.Errorf("last row %+v; want Chat about this", s.Rows[len(s.Rows)-1])
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
	t.Run("bottom-anchored picker below an answered one", func(t *testing.T) {
		// From 2.1.331 on a picker is drawn at the bottom of the pane with
		// blank lines above it; what is left above (here an earlier
		// question's header and rows in the scrollback) is not the picker.
		lines := []string{
			" ☐ Database",
			"Which database should we use?",
			"❯ 1. SQLite",
			"  2. PostgreSQL",
			"",
			"● Now the color.",
		}
		lines = append(lines, make([]string, 20)...)
		lines = append(lines,
			"────────────────────────────────────────",
			" ☐ Color",
			"",
			"Which color do you prefer?",
			"",
			"  1. Red",
			"❯ 2. Blue",
			"  3. Type something.",
			"────────────────────────────────────────",
			"  4. Chat about this",
			"",
			"Enter to select · ↑/↓ to navigate · Esc to cancel",
		)
		s := ParseScreen(strings.Join(lines, "\n"))
		if s.Kind != ScreenQuestion || s.Question != "Which color do you prefer?" || s.Numbered() != 4 || s.Cursor().Label != "Blue" {
			t.Fatalf("got %+v; want the color question, 4 rows, cursor on Blue", s)
		}
		if _, ok := ParsePrompt(strings.Join(lines, "\n")); ok {
			t.Error("ParsePrompt found an input box under an open picker")
		}
	})
	t.Run("empty capture", func(t *testing.T) {
		if s := ParseScreen(""); s.Kind != ScreenNone || s.Cursor() != nil {
			t.Fatalf("got %+v; want nothing", s)
		}
	})
}

func FuzzParseScreen(f *testing.F) {
	var files []string
	for _, set := range fixtureSets {
		fs, _ := filepath.Glob(set.path("panes", "*.txt"))
		files = append(files, fs...)
	}
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := Drawing(s); d != "" && !strings.Contains(clikit.Squash(s), clikit.Squash(strings.Fields(d)[0])) {
			t.Fatalf("drawing %q: its first word is not on the pane", d)
		}
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

func TestParsePrompt(t *testing.T) {
	long := strings.Repeat("a line of a long reply\n", 19) + "the last line"
	cases := []struct {
		pane  string
		ok    bool
		empty bool
		holds string // a text the box must hold, "" to skip
		not   string // a text the box must not hold, "" to skip
	}{
		{"prompt-empty", true, true, "", "x"},
		{"prompt-after-decline", true, true, "", ""},
		{"prompt-busy", true, true, "", ""},
		{"prompt-typed", true, false, "first line\nsecond line", "first line"},
		{"prompt-pasted-long", true, false, long, long + "\none more"},
		{"single-fresh", false, false, "", ""},
		{"multi-review", false, false, "", ""},
		{"plan-fresh", false, false, "", ""},
		{"permission-prompt", false, false, "", ""},
	}
	for _, set := range fixtureSets {
		for _, c := range cases {
			t.Run(set.version+"/"+c.pane, func(t *testing.T) {
				box, ok := ParsePrompt(readSetPane(t, set, c.pane))
				if ok != c.ok {
					t.Fatalf("ParsePrompt ok = %v (box %q); want %v", ok, box.Text, c.ok)
				}
				if !ok {
					return
				}
				if box.Empty() != c.empty {
					t.Errorf("Empty = %v (box %q); want %v", box.Empty(), box.Text, c.empty)
				}
				if c.holds != "" && !box.Holds(c.holds) {
					t.Errorf("box %q does not hold %q", box.Text, c.holds)
				}
				if c.not != "" && box.Holds(c.not) {
					t.Errorf("box %q holds %q; want not", box.Text, c.not)
				}
			})
		}
	}
	t.Run("attached images", func(t *testing.T) {
		// As 2.1.332 shows two pasted image paths and then pasted text.
		box := PromptBox{Text: "[Image #1] [Image #2]what is in these?\nsecond line"}
		if box.Attached() != 2 || !box.Holds("what is in these?\nsecond line") || box.Holds("what is in these?") || box.Empty() {
			t.Errorf("box %q: attached %d, holds %v; want 2 images and the text", box.Text, box.Attached(), box.Holds("what is in these?\nsecond line"))
		}
		if alone := (PromptBox{Text: "[Image #1]"}); alone.Attached() != 1 || alone.Empty() || !alone.Holds("") {
			t.Errorf("an image alone: attached %d, empty %v", alone.Attached(), alone.Empty())
		}
	})
	t.Run("typed text before a collapsed paste", func(t *testing.T) {
		box := PromptBox{Text: "first line[Pasted text #1 +19 lines]"}
		if box.Holds(long) {
			t.Error("a box with extra typed text must not hold the paste alone")
		}
	})
}
