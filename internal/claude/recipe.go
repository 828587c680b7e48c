package claude

import (
	"fmt"
	"strings"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

// A recipe is how lab answers a dialog through the TUI: the named keys and
// pastes to play into the pane, in order, with checkpoints between them
// (the keys between two go in one burst). A checkpoint (StepExpect) is a condition on the parsed pane that
// must hold before the next step; the player polls the pane until it does
// or gives up without sending anything more. Every key that changes state
// (Space, a paste, Enter) is preceded by a checkpoint on the cursor row,
// so the committing key is never pressed blind.
//
// Recipes assume a fresh picker: the first question shown, its cursor on
// row 1 and nothing toggled. The first step checks exactly that, so a
// picker someone already moved at the terminal is refused instead of being
// answered from the wrong place. The cursor only moves within the rows
// (Up never wraps past row 1), per the facts file.

// Step is one action of a recipe; its checkpoints are *Expect.
type Step = agent.Step

// SubmitRow is the Row.Number of a multi-select question's unnumbered
// Submit/Next row, as used by Expect.Cursor.
const SubmitRow = 0

// Expect is a checkpoint: what the pane must show.
type Expect struct {
	Desc     string     // for errors and logs: which checkpoint this is
	Kind     ScreenKind // the picker on screen
	Question string     // the question shown (question screens), compared without white space
	Rows     int        // numbered rows the picker must have (plans), 0 to skip
	Cursor   int        // the row number under the cursor; SubmitRow for Submit/Next
	// Label is the text the cursor row must show (a listed label, typed
	// free text, "Submit answers"), "" to check the position only.
	Label string
	// Box is the cursor row's required check box state; NoBox skips.
	Box Box
	// Checked, when non-nil, lists exactly the texts whose boxes must be
	// ticked (multi-select), in any order.
	Checked []string
	// Review, when non-nil, is exactly what the review screen must list.
	Review []ReviewItem
	// Prompt, when set, is the plan or permission picker's prompt line.
	Prompt string
	// Labels, when non-nil, are exactly the numbered rows' texts, in order.
	Labels []string
}

// Match implements agent.Check on a raw capture.
func (e *Expect) Match(capture string) (string, error) {
	s := ParseScreen(capture)
	return ScreenID(s), e.Check(s)
}

// What names the checkpoint.
func (e *Expect) What() string { return e.Desc }

// ScreenID names the screen s shows: the cursor moving does not make a
// new screen, a form advancing does.
func ScreenID(s *Screen) string { return string(s.Kind) + "\x00" + s.Question }

// Check reports how s differs from e, nil when it matches. What it checks is
// this TUI's own (tabs, boxes, the review screen); Codex's differs.
func (e *Expect) Check(s *Screen) error {
	if s.Kind != e.Kind {
		return fmt.Errorf("%s: screen shows %s; want %s", e.Desc, kindName(s.Kind), kindName(e.Kind))
	}
	if e.Question != "" && !clikit.SameText(s.Question, e.Question) {
		return fmt.Errorf("%s: question %q; want %q", e.Desc, s.Question, e.Question)
	}
	if e.Rows > 0 && s.Numbered() != e.Rows {
		return fmt.Errorf("%s: picker has %d rows; want %d", e.Desc, s.Numbered(), e.Rows)
	}
	if e.Prompt != "" && !clikit.SameText(s.Prompt, e.Prompt) {
		return fmt.Errorf("%s: picker asks %q; want %q", e.Desc, s.Prompt, e.Prompt)
	}
	if e.Labels != nil {
		if err := checkLabels(s, e.Labels); err != nil {
			return fmt.Errorf("%s: %w", e.Desc, err)
		}
	}
	c := s.Cursor()
	if c == nil {
		return fmt.Errorf("%s: no cursor row", e.Desc)
	}
	if c.Number != e.Cursor {
		return fmt.Errorf("%s: cursor on %s; want %s", e.Desc, rowName(c.Number, c.Label), rowName(e.Cursor, e.Label))
	}
	if e.Label != "" && !c.RowShows(e.Label) {
		return fmt.Errorf("%s: cursor row shows %q; want %q", e.Desc, c.Label, e.Label)
	}
	if e.Box != NoBox && c.Box != e.Box {
		return fmt.Errorf("%s: cursor row box is %s; want %s", e.Desc, boxName(c.Box), boxName(e.Box))
	}
	if e.Checked != nil {
		if err := checkTicked(s, e.Checked); err != nil {
			return fmt.Errorf("%s: %w", e.Desc, err)
		}
	}
	if e.Review != nil {
		if len(s.Review) != len(e.Review) {
			return fmt.Errorf("%s: review lists %d answers; want %d", e.Desc, len(s.Review), len(e.Review))
		}
		for i, w := range e.Review {
			g := s.Review[i]
			if !clikit.SameText(g.Question, w.Question) || !clikit.SameText(g.Answer, w.Answer) {
				return fmt.Errorf("%s: review item %d is %q → %q; want %q → %q", e.Desc, i+1, g.Question, g.Answer, w.Question, w.Answer)
			}
		}
	}
	return nil
}

// checkTicked reports whether exactly the rows showing want are ticked.
// A row's text may wrap onto its continuation lines; an option row's
// continuation is its description, which RowShows tolerates by matching
// the label alone first.
func checkTicked(s *Screen, want []string) error {
	var ticked []*Row
	var labels []string
	for i := range s.Rows {
		if s.Rows[i].Box == Checked {
			ticked = append(ticked, &s.Rows[i])
			labels = append(labels, s.Rows[i].Label)
		}
	}
	if len(ticked) != len(want) {
		return fmt.Errorf("ticked %q; want %q", labels, want)
	}
	used := make([]bool, len(ticked))
	for _, w := range want {
		found := false
		for i, r := range ticked {
			if !used[i] && r.RowShows(w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return fmt.Errorf("ticked %q; want %q", labels, want)
		}
	}
	return nil
}

// checkLabels reports whether the numbered rows show exactly want.
func checkLabels(s *Screen, want []string) error {
	var rows []*Row
	for i := range s.Rows {
		if s.Rows[i].Number > 0 {
			rows = append(rows, &s.Rows[i])
		}
	}
	if len(rows) != len(want) {
		return fmt.Errorf("picker has %d rows; want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if !r.RowShows(want[i]) {
			return fmt.Errorf("row %d shows %q; want %q", i+1, r.Label, want[i])
		}
	}
	return nil
}

func kindName(k ScreenKind) string {
	if k == ScreenNone {
		return "no picker"
	}
	return string(k) + " picker"
}

func rowName(n int, label string) string {
	if n == SubmitRow {
		return "the Submit/Next row"
	}
	if label == "" {
		return fmt.Sprintf("row %d", n)
	}
	return fmt.Sprintf("row %d %q", n, label)
}

func boxName(b Box) string {
	switch b {
	case Checked:
		return "ticked"
	case Unchecked:
		return "empty"
	}
	return "absent"
}

// Recipe returns the steps that answer d with a on a CLI whose plan picker
// is g. It validates first (see ValidateAnswer) and returns that error.
func Recipe(d *conv.Dialog, a conv.Answer, g PlanGeometry) ([]Step, error) {
	if err := ValidateAnswer(d, a, g); err != nil {
		return nil, err
	}
	r := newRecipe()
	switch d.Kind {
	case conv.DialogPlan:
		r.plan(a, g.ForDialog(d))
	case conv.DialogPermission:
		r.permission(d.Permission, a)
	default:
		r.questions(d, a)
	}
	return r.Steps, nil
}

// recipe is a recipe being built (clikit.Recipe) with Claude Code's
// checkpoints.
type recipe struct{ clikit.Recipe }

// newRecipe starts a recipe. The keys that change a picker's state
// (Enter, Space, Tab) wait out the picker's grace; arrows go at once.
func newRecipe() *recipe {
	return &recipe{clikit.Recipe{Acts: func(k string) bool { return k == "Enter" || k == "Space" || k == "Tab" }}}
}

func (r *recipe) expect(e Expect) { r.Expect(&e) }

func (r *recipe) plan(a conv.Answer, g PlanGeometry) {
	o := *a.Option
	r.expect(Expect{Desc: "plan picker fresh", Kind: ScreenPlan, Rows: len(g.Rows), Cursor: 1, Labels: g.Rows})
	r.Move(o)
	if o == g.Feedback {
		r.expect(Expect{Desc: "on the feedback row", Kind: ScreenPlan, Rows: len(g.Rows), Cursor: o + 1})
		r.Paste(a.Feedback)
		r.expect(Expect{Desc: "feedback typed", Kind: ScreenPlan, Rows: len(g.Rows), Cursor: o + 1, Label: a.Feedback})
	} else {
		r.expect(Expect{Desc: fmt.Sprintf("on approve row %d", o+1), Kind: ScreenPlan, Rows: len(g.Rows), Cursor: o + 1})
	}
	r.Commit()
}

// amendPrefix is what the plain "No" row of a permission prompt reads
// once Tab turned it into a text row; typed text replaces everything after
// "No, ".
const (
	amendPrefix = "No, and tell Claude what to do differently"
	amendTyped  = "No, "
)

// permission answers a permission prompt: from a fresh prompt showing
// exactly the options lab read, move to the option and press Enter; for
// feedback, Tab first, type it into the row and confirm it shows.
func (r *recipe) permission(p *conv.Permission, a conv.Answer) {
	o := *a.Option
	labels := make([]string, len(p.Options))
	for i, opt := range p.Options {
		labels[i] = opt.Label
	}
	base := Expect{Kind: ScreenPermission, Prompt: p.Question, Rows: len(labels)}
	at := func(desc string, cursor int, label string) Expect {
		e := base
		e.Desc, e.Cursor, e.Label = desc, cursor, label
		return e
	}
	fresh := at("permission prompt fresh", 1, labels[0])
	fresh.Labels = labels
	r.expect(fresh)
	r.Move(o)
	r.expect(at(fmt.Sprintf("on option %d %q", o+1, labels[o]), o+1, labels[o]))
	if a.Feedback != "" {
		r.Key("Tab")
		r.expect(at("the denial takes text", o+1, amendPrefix))
		r.Paste(a.Feedback)
		r.expect(at("feedback typed", o+1, amendTyped+a.Feedback))
	}
	r.Commit()
}

// questions answers a one- or many-question dialog. Each question's
// picker auto-advances to the next on Enter (single-select) or on its
// Submit/Next row (multi-select). A lone single-select question submits
// at once; forms and a lone multi-select question end on the review
// screen, whose "Submit answers" is the committing key.
func (r *recipe) questions(d *conv.Dialog, a conv.Answer) {
	review := len(d.Questions) > 1 || d.Questions[0].MultiSelect
	var items []ReviewItem
	for i, q := range d.Questions {
		qa := a.Answers[i]
		r.Pos = 0
		what := func(s string) string {
			if len(d.Questions) == 1 {
				return s
			}
			return fmt.Sprintf("question %d: %s", i+1, s)
		}
		fresh := Expect{Desc: what("picker fresh"), Kind: ScreenQuestion, Question: q.Question, Cursor: 1}
		if q.MultiSelect {
			fresh.Checked = []string{}
		}
		r.expect(fresh)
		n := len(q.Options)
		if !q.MultiSelect {
			if len(qa.Chosen) == 1 {
				c := qa.Chosen[0]
				r.Move(c)
				r.expect(Expect{Desc: what("on the chosen option"), Kind: ScreenQuestion, Question: q.Question, Cursor: c + 1, Label: q.Options[c].Label})
				items = append(items, ReviewItem{q.Question, q.Options[c].Label})
			} else {
				r.Move(n)
				r.expect(Expect{Desc: what("on the free-text row"), Kind: ScreenQuestion, Question: q.Question, Cursor: n + 1})
				r.Paste(qa.OtherText)
				r.expect(Expect{Desc: what("free text typed"), Kind: ScreenQuestion, Question: q.Question, Cursor: n + 1, Label: qa.OtherText})
				items = append(items, ReviewItem{q.Question, qa.OtherText})
			}
			if review {
				r.Key("Enter")
			} else {
				r.Commit()
			}
			continue
		}
		var ticked, record []string
		for _, c := range qa.Chosen {
			r.Move(c)
			r.expect(Expect{Desc: what(fmt.Sprintf("on option %q to tick it", q.Options[c].Label)), Kind: ScreenQuestion, Question: q.Question, Cursor: c + 1, Label: q.Options[c].Label, Box: Unchecked})
			r.Key("Space")
			ticked = append(ticked, q.Options[c].Label)
		}
		record = append(record, ticked...)
		if qa.OtherText != "" {
			r.Move(n)
			r.expect(Expect{Desc: what("on the free-text row"), Kind: ScreenQuestion, Question: q.Question, Cursor: n + 1, Box: Unchecked})
			// Pasting fills and ticks the row; Space there would type
			// a space.
			r.Paste(qa.OtherText)
			r.expect(Expect{Desc: what("free text typed"), Kind: ScreenQuestion, Question: q.Question, Cursor: n + 1, Label: qa.OtherText, Box: Checked})
			ticked = append(ticked, qa.OtherText)
			record = append(record, qa.OtherText)
		}
		r.Move(n + 1)
		r.expect(Expect{Desc: what("on Submit with the chosen rows ticked"), Kind: ScreenQuestion, Question: q.Question, Cursor: SubmitRow, Checked: ticked})
		r.Key("Enter")
		items = append(items, ReviewItem{q.Question, strings.Join(record, ", ")})
	}
	if review {
		r.expect(Expect{Desc: "review screen lists the intended answers", Kind: ScreenReview, Cursor: 1, Label: "Submit answers", Review: items})
		r.Commit()
	}
}
