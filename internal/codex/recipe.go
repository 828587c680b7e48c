package codex

import (
	"fmt"
	"strconv"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

// A recipe is how lab answers a dialog through the TUI: the named keys and
// pastes to play into the pane, in order, with checkpoints between them
// (see agent.Step; the keys between two go in one burst). Every key that changes state (Tab into the notes,
// a paste, Enter) is preceded by a checkpoint on the cursor row, so the
// committing key is never pressed blind.
//
// Rows are found by their labels on the pane, never by fixed positions:
// Recipe reads the picker shown now, checks its rows are the dialog's
// (listed options plus "None of the above"; the plan or approval rows of
// roles lab knows), and every checkpoint names the label the cursor must
// be on. A picker whose rows lab cannot map is a conflict.
//
// Recipes assume a fresh picker: the first question shown, its cursor on
// row 1, notes closed. The first checkpoint checks exactly that, so a
// picker someone already moved at the terminal is refused instead of being
// answered from the wrong place (the driver's Rewind brings back a cursor
// that was only moved).

// Step is one action of a recipe; its checkpoints are *Expect.
type Step = agent.Step

// Expect is a checkpoint: what the pane must show.
type Expect struct {
	Desc     string     // for errors and logs: which checkpoint this is
	Kind     ScreenKind // the picker on screen
	Index    int        // question screens: the question shown (1-based), 0 to skip
	Question string     // question screens: its text, compared without white space
	// Rows, when non-nil, are exactly the row labels the picker must show,
	// in order.
	Rows []string
	// Cursor is the label the cursor row must show.
	Cursor string
	// Notes, on question screens: nil means the notes field must be
	// closed (or open and empty); otherwise it must be open and show
	// exactly *Notes.
	Notes *string
	// Box, when non-nil, makes this a checkpoint on the input box instead
	// of a picker: no picker shows, and the box holds exactly *Box ("" for
	// empty).
	Box *string
}

// Match implements agent.Check on a raw capture.
func (e *Expect) Match(capture string) (string, error) {
	s := ParseScreen(capture)
	if e.Box != nil {
		return ScreenID(s), e.checkBox(capture)
	}
	return ScreenID(s), e.Check(s)
}

// checkBox reports how the input box on capture differs from e.Box.
func (e *Expect) checkBox(capture string) error {
	b, ok := ParsePrompt(capture)
	switch {
	case !ok:
		return fmt.Errorf("%s: no input box shows", e.Desc)
	case *e.Box == "" && !b.Empty():
		return fmt.Errorf("%s: the input box holds %q; want it empty", e.Desc, b.Text)
	case *e.Box != "" && !b.Holds(*e.Box):
		return fmt.Errorf("%s: the input box holds %q; want %q", e.Desc, b.Text, *e.Box)
	}
	return nil
}

// What names the checkpoint.
func (e *Expect) What() string { return e.Desc }

// ScreenID names the screen s shows: the cursor moving does not make a new
// screen, the next question of a form does.
func ScreenID(s *Screen) string {
	return string(s.Kind) + "\x00" + strconv.Itoa(s.Index) + "\x00" + s.Question + s.Prompt
}

// Check reports how s differs from e, nil when it matches. What it checks is
// this TUI's own (question index, notes); Claude Code's differs.
func (e *Expect) Check(s *Screen) error {
	if s.Kind != e.Kind {
		return fmt.Errorf("%s: screen shows %s; want %s", e.Desc, kindName(s.Kind), kindName(e.Kind))
	}
	if e.Index > 0 && s.Index != e.Index {
		return fmt.Errorf("%s: question %d of %d shown; want question %d", e.Desc, s.Index, s.Count, e.Index)
	}
	if e.Question != "" && !clikit.SameText(s.Question, e.Question) {
		return fmt.Errorf("%s: question %q; want %q", e.Desc, s.Question, e.Question)
	}
	if e.Rows != nil {
		if err := sameRows(s, e.Rows); err != nil {
			return fmt.Errorf("%s: %w", e.Desc, err)
		}
	}
	c := s.Cursor()
	if c == nil {
		return fmt.Errorf("%s: no cursor row", e.Desc)
	}
	if !c.RowShows(e.Cursor) {
		return fmt.Errorf("%s: cursor on %q; want %q", e.Desc, c.Label, e.Cursor)
	}
	if s.Kind == ScreenQuestion {
		switch {
		case e.Notes == nil && s.NotesOpen && s.Notes != "":
			return fmt.Errorf("%s: notes hold %q; want none", e.Desc, s.Notes)
		case e.Notes != nil && !s.NotesOpen:
			return fmt.Errorf("%s: the notes field is closed; want it open", e.Desc)
		case e.Notes != nil && !clikit.SameText(s.Notes, *e.Notes):
			return fmt.Errorf("%s: notes show %q; want %q", e.Desc, s.Notes, *e.Notes)
		}
	}
	return nil
}

// sameRows reports whether s shows exactly the rows labelled want.
func sameRows(s *Screen, want []string) error {
	got := make([]string, len(s.Rows))
	for i, r := range s.Rows {
		got[i] = r.Label
	}
	if len(got) != len(want) {
		return fmt.Errorf("picker rows %q; want %q", got, want)
	}
	for i := range want {
		if !s.Rows[i].RowShows(want[i]) {
			return fmt.Errorf("picker rows %q; want %q", got, want)
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

// questionRows are the rows the TUI shows for q: its options, then
// "None of the above".
func questionRows(q conv.Question) []string {
	rows := make([]string, 0, len(q.Options)+1)
	for _, o := range q.Options {
		rows = append(rows, o.Label)
	}
	return append(rows, noneLabel)
}

// Recipe returns the steps that answer d with a, given the pane as it
// shows now. It validates first (ValidateAnswer), then checks that the
// pane shows d's picker with rows lab can map: EConflict otherwise.
//
// Keeping a plan in Plan mode has no record of its own: the feedback,
// typed into the input box once the picker closes, is the next prompt, and
// its Enter commits the answer. A denied approval interrupts the turn at
// once: what to do differently is a reply of its own.
func Recipe(d *conv.Dialog, a conv.Answer, capture string) ([]Step, error) {
	if err := ValidateAnswer(d, a); err != nil {
		return nil, err
	}
	s := ParseScreen(capture)
	r := newRecipe()
	switch d.Kind {
	case conv.DialogPlan:
		rows, err := planRowsShown(s, d.PlanRows)
		if err != nil {
			return nil, err
		}
		o := *a.Option
		if PlanRoleOf(rows, o) != PlanStay {
			r.pick(ScreenPlan, rows, o, "plan", true)
			break
		}
		r.pick(ScreenPlan, rows, o, "plan", false)
		r.reply(a.Feedback)
	case conv.DialogPermission:
		rows, err := approvalRowsShown(s, d.Permission)
		if err != nil {
			return nil, err
		}
		r.pick(ScreenApproval, rows, *a.Option, "approval", true)
	case conv.DialogQuestion:
		q := d.Questions[0]
		if s.Kind != ScreenQuestion || s.Index != 1 || !clikit.SameText(s.Question, q.Question) || sameRows(s, questionRows(q)) != nil {
			return nil, conv.Errorf(conv.EConflict, "the pane does not show this dialog's first question with its options; nothing was typed")
		}
		r.questions(d, a)
	}
	return r.Steps, nil
}

// planRowsShown returns the plan picker's rows as the pane shows them,
// which must agree with the dialog's (when dressed) and all have a role.
func planRowsShown(s *Screen, dressed []string) ([]string, error) {
	if s.Kind != ScreenPlan {
		return nil, conv.Errorf(conv.EConflict, "the pane does not show the plan picker; nothing was typed")
	}
	rows := make([]string, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = r.Label
		if planRoleOfLabel(r.Label) == PlanUnknown {
			return nil, conv.Errorf(conv.EConflict, "the plan picker shows a row lab does not know (%q); answer it at the terminal", r.Label)
		}
	}
	if dressed != nil {
		if err := sameRows(s, dressed); err != nil {
			return nil, conv.Wrap(conv.EConflict, err, "the plan picker changed; nothing was typed")
		}
	}
	return rows, nil
}

// approvalRowsShown returns the approval prompt's rows as the pane shows
// them, which must be p's options, for p's call.
func approvalRowsShown(s *Screen, p *conv.Permission) ([]string, error) {
	if s.Kind != ScreenApproval || !approvalShows(p, s) {
		return nil, conv.Errorf(conv.EConflict, "the pane does not show this approval prompt; nothing was typed")
	}
	rows := make([]string, len(p.Options))
	for i, o := range p.Options {
		rows[i] = o.Label
	}
	if err := sameRows(s, rows); err != nil {
		return nil, conv.Wrap(conv.EConflict, err, "the approval prompt changed; nothing was typed")
	}
	return rows, nil
}

// recipe is a recipe being built (clikit.Recipe) with Codex's checkpoints.
type recipe struct{ clikit.Recipe }

// newRecipe starts a recipe. Every key waits out the picker grace, arrows
// too: the Codex TUI has been seen to drop a Down sent the instant a
// question appeared (the matrix caught it), as it drops a shift+tab sent
// the instant its input box appears.
func newRecipe() *recipe {
	return &recipe{clikit.Recipe{Acts: func(string) bool { return true }}}
}

func (r *recipe) expect(e Expect) { r.Expect(&e) }

// pick chooses row o of a one-screen picker (plan or approval) whose rows
// are rows; commit says its Enter makes the answer final.
func (r *recipe) pick(kind ScreenKind, rows []string, o int, what string, commit bool) {
	r.expect(Expect{Desc: what + " picker fresh", Kind: kind, Rows: rows, Cursor: rows[0]})
	r.Move(o)
	r.expect(Expect{Desc: fmt.Sprintf("on %q", rows[o]), Kind: kind, Rows: rows, Cursor: rows[o]})
	if commit {
		r.Commit()
	} else {
		r.Key("Enter")
	}
}

// reply types text into the input box the picker gave way to and submits
// it: the committing Enter.
func (r *recipe) reply(text string) {
	empty := text[:0]
	r.expect(Expect{Desc: "the input box, empty", Box: &empty})
	r.Paste(text)
	r.expect(Expect{Desc: "the input box holds the feedback", Box: &text})
	r.Commit()
}

// questions answers each question in turn: the chosen row (or "None of
// the above"), notes typed into the field Tab opens, Enter. Enter on a
// question that is not the last moves the form on; on the last it submits
// all.
func (r *recipe) questions(d *conv.Dialog, a conv.Answer) {
	for i, q := range d.Questions {
		qa := a.Answers[i]
		rows := questionRows(q)
		what := func(s string) string {
			if len(d.Questions) == 1 {
				return s
			}
			return fmt.Sprintf("question %d: %s", i+1, s)
		}
		r.Pos = 0
		r.expect(Expect{Desc: what("picker fresh"), Kind: ScreenQuestion, Index: i + 1, Question: q.Question, Rows: rows, Cursor: rows[0]})
		target := len(q.Options) // None of the above
		if len(qa.Chosen) == 1 {
			target = qa.Chosen[0]
		}
		r.Move(target)
		r.expect(Expect{Desc: what(fmt.Sprintf("on %q", rows[target])), Kind: ScreenQuestion, Index: i + 1, Question: q.Question, Rows: rows, Cursor: rows[target]})
		if qa.OtherText != "" {
			r.Key("Tab")
			empty := ""
			r.expect(Expect{Desc: what("notes open"), Kind: ScreenQuestion, Index: i + 1, Question: q.Question, Rows: rows, Cursor: rows[target], Notes: &empty})
			r.Paste(qa.OtherText)
			notes := qa.OtherText
			r.expect(Expect{Desc: what("notes typed"), Kind: ScreenQuestion, Index: i + 1, Question: q.Question, Rows: rows, Cursor: rows[target], Notes: &notes})
		}
		if i == len(d.Questions)-1 {
			r.Commit()
		} else {
			r.Key("Enter")
		}
	}
}

// rewindRows is how many Up keys bring the cursor back to row 1 when
// someone moved it at the terminal but changed nothing else: the screen is
// the fresh checkpoint's picker with the cursor on another row and no
// notes typed. Anything else is 0, left for the fresh checkpoint to judge.
func rewindRows(s *Screen, fresh *Expect) int {
	if fresh.Check(s) == nil || s.Kind != fresh.Kind {
		return 0
	}
	if fresh.Index > 0 && s.Index != fresh.Index {
		return 0
	}
	if fresh.Question != "" && !clikit.SameText(s.Question, fresh.Question) {
		return 0
	}
	if fresh.Rows != nil && sameRows(s, fresh.Rows) != nil {
		return 0
	}
	if s.NotesOpen && s.Notes != "" {
		return 0
	}
	for i, r := range s.Rows {
		if r.Cursor {
			return i
		}
	}
	return 0
}
