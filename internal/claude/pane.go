package claude

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"lab/internal/clikit"
)

// This file reads a captured tmux pane of the Claude Code TUI and finds the
// picker on it, if any: which screen it is (a question, the review screen
// of a form, a plan approval), the rows it offers and which row the cursor
// (❯) is on. Answer recipes use it to confirm, before a committing key, that
// the cursor is where the recipe meant it to be.
//
// The parser reads only plain text (tmux capture-pane without escapes), so
// it relies on glyphs and words the TUI prints, as seen on 2.1.328–2.1.332
// (from 2.1.331 on the picker sits at the bottom of the pane with blank
// lines above it, which is why everything is found from the bottom up):
//
//	←  ☐ Color  ☐ Size  ✔ Submit  →      tab bar (forms, multi-select)
//	 ☐ Database                           header (one single-select question)
//	❯ 1. SQLite                           a row; ❯ marks the cursor
//	  5. [✔] Type something               a multi-select row with its box
//	❯    Submit                           the unnumbered Submit/Next row
//	Review your answers                   the review screen of a form
//	 ● Which color? / → Blue              its recorded answers
//	Would you like to proceed?            the plan approval picker

// ScreenKind says which picker a pane shows. The names clikit gives every
// CLI are bound here, beside this CLI's own screens (a per-CLI binding).
type ScreenKind = clikit.ScreenKind

const (
	ScreenNone     = clikit.ScreenNone
	ScreenQuestion = clikit.ScreenQuestion // one question of an AskUserQuestion dialog
	ScreenPlan     = clikit.ScreenPlan     // the ExitPlanMode approval picker
	// ScreenReview is "Review your answers" before a form submits.
	ScreenReview ScreenKind = "review"
	// ScreenPermission is a tool permission prompt ("Do you want to
	// proceed?" and its kin).
	ScreenPermission ScreenKind = "permission"
)

// Box is a multi-select row's check box.
type Box int

const (
	NoBox     Box = iota // not a multi-select row
	Unchecked            // [ ]
	Checked              // [✔]
)

// MarshalText names the box in goldens and logs.
func (b Box) MarshalText() ([]byte, error) { return []byte(boxName(b)), nil }

// Row is one selectable row of a picker.
type Row struct {
	// Number is the number the TUI shows (1-based); 0 for the unnumbered
	// Submit/Next row of a multi-select question.
	Number int      `json:"number"`
	Label  string   `json:"label"`
	Box    Box      `json:"box,omitzero"`
	Cursor bool     `json:"cursor,omitempty"`
	More   []string `json:"more,omitempty"` // following lines: a description, wrapped text or a hint
}

// Tab is one entry of a form's tab bar.
type Tab struct {
	Label string `json:"label"`
	Done  bool   `json:"done,omitempty"` // ☒ or ✔: answered (or the Submit tab)
}

// ReviewItem is one question and its answer on the review screen.
type ReviewItem struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// Screen is the picker a pane shows.
type Screen struct {
	Kind     ScreenKind   `json:"kind"`
	Tabs     []Tab        `json:"tabs,omitempty"`
	Question string       `json:"question,omitempty"` // the shown question's text, lines joined by spaces
	Prompt   string       `json:"prompt,omitempty"`   // the plan or permission picker's prompt line
	Review   []ReviewItem `json:"review,omitempty"`
	Rows     []Row        `json:"rows,omitempty"`
	// Title and Body are a permission prompt's heading ("Bash command",
	// "Edit file") and the lines between it and the question (the
	// command, a diff, a description), separators dropped.
	Title string   `json:"title,omitempty"`
	Body  []string `json:"body,omitempty"`
	// Amend says the prompt's footer offers Tab to amend an answer with
	// text for the agent.
	Amend bool `json:"amend,omitempty"`
}

// Cursor returns the row under the cursor, or nil when no row has it.
func (s *Screen) Cursor() *Row { return clikit.FindRow(s.Rows, func(r *Row) bool { return r.Cursor }) }

// Numbered returns how many numbered rows the picker shows.
func (s *Screen) Numbered() int {
	n := 0
	for _, r := range s.Rows {
		if r.Number > 0 {
			n++
		}
	}
	return n
}

const cursorGlyph = "❯"

var (
	// rowRE matches a numbered row: optional cursor, number, dot, text.
	rowRE = regexp.MustCompile(`^\s*(❯)?\s*(\d+)\.\s(.*)$`)
	// boxRE splits a multi-select row's text into its box and label.
	boxRE = regexp.MustCompile(`^\[(.)\]\s?(.*)$`)
	// submitRE matches the unnumbered row that ends a multi-select
	// question: "Submit" on the last question, "Next" before that.
	submitRE = regexp.MustCompile(`^\s*(❯)?\s*(Submit|Next)$`)
	// headerRE matches the one-question header " ☐ Database".
	headerRE = regexp.MustCompile(`^ ?[☐☒✔] \S`)
	// tabGapRE separates tab bar entries.
	tabGapRE = regexp.MustCompile(`\s{2,}`)
)

// planMarkers are texts of the plan picker's prompt line. The first is
// 2.1.328's with a written plan; the second its no-plan variant.
var planMarkers = []string{"Would you like to proceed?", "Exit plan mode?"}

// isPermissionAsk reports whether a line is a permission prompt's question:
// "Do you want to proceed?", "Do you want to make this edit to x?", "Do
// you want to create x?", "Do you want to allow Claude to fetch this
// content?" on 2.1.328.
func isPermissionAsk(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "Do you want to ") && strings.HasSuffix(t, "?")
}

// ParseScreen finds the picker on a captured pane. A pane with no picker
// yields Kind ScreenNone.
func ParseScreen(capture string) *Screen {
	lines := clikit.PaneLines(capture)
	s := &Screen{}
	// The picker is the bottom-most block: take the later of the last
	// question header and the last plan prompt, so a plan body with
	// check boxes or an old answer above is not mistaken for the picker.
	head, plan, ask := -1, -1, -1
	for i := len(lines) - 1; i >= 0 && head < 0; i-- {
		if isTabBar(lines[i]) || headerRE.MatchString(lines[i]) {
			head = i
		}
	}
	for i := len(lines) - 1; i > head && plan < 0 && ask < 0; i-- {
		for _, m := range planMarkers {
			if strings.Contains(lines[i], m) {
				plan = i
				break
			}
		}
		if plan < 0 && isPermissionAsk(lines[i]) && ruleAbove(lines, i) > head {
			// A question's own text may read "Do you want to …?"; a
			// permission prompt starts below a rule of its own.
			ask = i
		}
	}
	switch {
	case ask >= 0:
		s.Kind = ScreenPermission
		s.Prompt = strings.TrimSpace(lines[ask])
		s.Rows, _ = parseRows(lines, ask+1, false)
		s.Title, s.Body = parsePermissionHead(lines, ask)
		for _, l := range lines[ask+1:] {
			if strings.Contains(l, "Tab to amend") {
				s.Amend = true
			}
		}
	case plan >= 0:
		s.Kind = ScreenPlan
		s.Prompt = strings.TrimSpace(lines[plan])
		s.Rows, _ = parseRows(lines, plan+1, false)
	case head >= 0:
		s.Tabs = parseTabs(lines[head])
		for i := head + 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "Review your answers" {
				s.Kind = ScreenReview
				s.Rows, _ = parseRows(lines, i+1, false)
				s.Review = parseReview(lines, i+1, firstRowLine(lines, i+1, s.Rows))
				return s
			}
		}
		s.Kind = ScreenQuestion
		var first int
		s.Rows, first = parseRows(lines, head+1, true)
		if first < 0 {
			first = len(lines)
		}
		s.Question = joinText(lines[head+1 : first])
	}
	return s
}

// parsePermissionHead reads a permission prompt's heading and body: the
// lines between the last full-width rule above the question and the
// question itself. The first is the title; dashed separators are dropped.
func parsePermissionHead(lines []string, ask int) (string, []string) {
	top := ruleAbove(lines, ask)
	var title string
	var body []string
	for _, l := range lines[top+1 : ask] {
		t := strings.TrimSpace(l)
		if t == "" || isDashedRule(t) {
			continue
		}
		if title == "" {
			title = t
			continue
		}
		body = append(body, strings.TrimRightFunc(strings.TrimPrefix(l, " "), unicode.IsSpace))
	}
	return title, body
}

// ruleAbove returns the index of the last full-width rule above line i,
// or -1.
func ruleAbove(lines []string, i int) int {
	for i--; i >= 0; i-- {
		if isSeparator(lines[i]) {
			return i
		}
	}
	return -1
}

// isDashedRule reports whether t is a line of ╌, the rule a permission
// prompt draws around a command or diff.
func isDashedRule(t string) bool {
	return len(t) >= 10*len("╌") && strings.Trim(t, "╌") == ""
}

func isTabBar(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "←") && strings.HasSuffix(t, "→")
}

func isSeparator(l string) bool {
	t := strings.TrimSpace(l)
	if len(t) < 10*len("─") {
		return false
	}
	return strings.Trim(t, "─") == ""
}

// parseTabs reads "←  ☐ Color  ☒ Size  ✔ Submit  →" or " ☐ Database".
func parseTabs(l string) []Tab {
	t := strings.TrimSpace(l)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "←"), "→")
	var tabs []Tab
	for _, f := range tabGapRE.Split(strings.TrimSpace(t), -1) {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		glyph, label, _ := strings.Cut(f, " ")
		tabs = append(tabs, Tab{Label: strings.TrimSpace(label), Done: glyph != "☐"})
	}
	return tabs
}

type rowAt struct {
	line int
	row  Row
}

// parseRows collects the picker's rows from line start on (Claude Code's
// rule: the last run, as its pickers sit at the bottom; Codex takes the
// first). It keeps the last run of consecutively numbered rows 1..n ending
// at the last numbered row (so a numbered list in the question text above is
// not taken for rows, and a run that does not start at 1 yields no rows),
// plus the Submit/Next row inside that run when multi is set. It returns the
// rows and the line of the first one (-1 when none).
func parseRows(lines []string, start int, multi bool) ([]Row, int) {
	var cands []rowAt
	for i := start; i < len(lines); i++ {
		l := lines[i]
		if m := rowRE.FindStringSubmatch(l); m != nil {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				continue
			}
			r := Row{Number: n, Cursor: m[1] != "", Label: strings.TrimSpace(m[3])}
			if b := boxRE.FindStringSubmatch(r.Label); b != nil {
				r.Box = Unchecked
				if b[1] != " " {
					r.Box = Checked
				}
				r.Label = strings.TrimSpace(b[2])
			}
			cands = append(cands, rowAt{i, r})
			continue
		}
		if multi {
			if m := submitRE.FindStringSubmatch(l); m != nil {
				cands = append(cands, rowAt{i, Row{Number: 0, Label: m[2], Cursor: m[1] != ""}})
			}
		}
	}
	last := -1
	for k := len(cands) - 1; k >= 0; k-- {
		if cands[k].row.Number > 0 {
			last = k
			break
		}
	}
	if last < 0 {
		return nil, -1
	}
	// Walk back over the numbered run n, n-1, ..., 1.
	first := last
	want := cands[last].row.Number - 1
	for k := last - 1; k >= 0 && want >= 1; k-- {
		n := cands[k].row.Number
		if n == 0 {
			continue
		}
		if n != want {
			break
		}
		first = k
		want--
	}
	if want != 0 {
		// The run does not reach row 1: not a whole picker (or not a
		// picker at all). No rows, so every checkpoint fails safely.
		return nil, -1
	}
	// Skip leading unnumbered candidates of the kept window.
	for first < last && cands[first].row.Number == 0 {
		first++
	}
	var rows []Row
	kept := cands[first : last+1]
	for k, c := range kept {
		end := len(lines)
		if k+1 < len(kept) {
			end = kept[k+1].line
		}
		c.row.More = continuation(lines, c.line+1, end)
		rows = append(rows, c.row)
	}
	return rows, kept[0].line
}

// continuation returns the non-blank lines after a row, up to the next
// blank line, separator or row.
func continuation(lines []string, from, to int) []string {
	var more []string
	for i := from; i < to && i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || isSeparator(l) {
			break
		}
		more = append(more, strings.TrimSpace(l))
	}
	return more
}

func firstRowLine(lines []string, from int, rows []Row) int {
	if len(rows) == 0 {
		return len(lines)
	}
	for i := from; i < len(lines); i++ {
		if m := rowRE.FindStringSubmatch(lines[i]); m != nil && m[2] == strconv.Itoa(rows[0].Number) {
			return i
		}
	}
	return len(lines)
}

// parseReview reads " ● question" / "   → answer" pairs; wrapped lines
// continue the field they follow.
func parseReview(lines []string, from, to int) []ReviewItem {
	var items []ReviewItem
	field := 0 // 1: question, 2: answer
	for i := from; i < to && i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "":
			field = 0
		case strings.HasPrefix(t, "● "):
			items = append(items, ReviewItem{Question: strings.TrimSpace(strings.TrimPrefix(t, "● "))})
			field = 1
		case strings.HasPrefix(t, "→ ") && len(items) > 0:
			items[len(items)-1].Answer = strings.TrimSpace(strings.TrimPrefix(t, "→ "))
			field = 2
		case field == 1:
			items[len(items)-1].Question += " " + t
		case field == 2:
			items[len(items)-1].Answer += " " + t
		}
	}
	return items
}

// joinText joins the non-blank lines of a block with single spaces.
func joinText(lines []string) string {
	var parts []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !isSeparator(l) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// RowShows reports whether the row's text, possibly wrapped onto its
// continuation lines, is exactly want.
func (r *Row) RowShows(want string) bool { return clikit.RowShows(r.Label, r.More, want) }

// PromptBox is the CLI's input box: the lines between the last two
// full-width separators at the bottom of the pane, the first starting with
// the ❯ prompt.
type PromptBox struct {
	Text string // the box's text, lines joined by "\n", prompt glyph removed
}

// pastedRE is how the TUI shows a long paste it collapsed.
var pastedRE = regexp.MustCompile(`^\[Pasted text #\d+(?: \+(\d+) lines)?\]$`)

// ParsePrompt finds the input box on a captured pane. It returns false
// when the pane shows no input box (a picker or permission prompt has the
// focus, or the CLI is not up).
func ParsePrompt(capture string) (PromptBox, bool) {
	lines := clikit.PaneLines(capture)
	top, bottom, ok := boxAt(lines)
	if !ok {
		return PromptBox{}, false
	}
	var text []string
	for k := top + 1; k < bottom; k++ {
		l := lines[k]
		if k == top+1 {
			l = strings.TrimPrefix(l, cursorGlyph)
		}
		text = append(text, strings.TrimPrefix(l, "  "))
	}
	t := strings.Join(text, "\n")
	return PromptBox{Text: strings.TrimPrefix(t, " ")}, true
}

// boxAt finds the input box: the lines between the last two full-width
// separators at the bottom, the first starting with the ❯ prompt. It
// returns the separators' lines.
func boxAt(lines []string) (top, bottom int, ok bool) {
	bottom = -1
	for i := len(lines) - 1; i >= 0; i-- {
		if isSeparator(lines[i]) && !strings.HasPrefix(lines[i], " ") {
			if bottom < 0 {
				bottom = i
				continue
			}
			if i+1 >= bottom || !strings.HasPrefix(lines[i+1], cursorGlyph) {
				return 0, 0, false
			}
			return i, bottom, true
		}
	}
	return 0, 0, false
}

// drawn is how the TUI draws a turn: below the echoed prompt, a block per
// thing the agent does, "● " first (see clikit.Drawn).
var drawn = clikit.Drawn{Echo: cursorGlyph + " ", Bullet: "● "}

// toolCallRE matches a tool call's first line ("Bash(npm test)",
// "Read(main.go)"), as drawn when the TUI does not fold it into a summary
// under the words before it.
var toolCallRE = regexp.MustCompile(`^[A-Z][A-Za-z]*\(`)

// Drawing returns the agent's words the pane shows being written: the
// last block below the echoed prompt and above the input box, when it is
// text (not a tool call), unwrapped. "" when there is none. The TUI draws
// only whole lines of a streaming text; a block it folded a tool's summary
// into ("  Ran 1 shell command") reads as text too, which the live view
// sorts out against the transcript.
func Drawing(capture string) string {
	lines := clikit.PaneLines(capture)
	top, _, ok := boxAt(lines)
	if !ok {
		return ""
	}
	block, ok := drawn.LastBlock(lines[:top])
	if !ok || toolCallRE.MatchString(block[0]) {
		return ""
	}
	for _, l := range block[1:] {
		if strings.HasPrefix(strings.TrimSpace(l), "⎿") {
			return "" // a tool's output
		}
	}
	return clikit.Unwrap(block)
}

// imageRE is how the box shows an attached image: "[Image #1]", the
// next placeholder or the text following it after at most a space.
var imageRE = regexp.MustCompile(`\[Image #\d+\] ?`)

// Attached counts the images the box shows attached.
func (b PromptBox) Attached() int { return len(imageRE.FindAllStringIndex(b.Text, -1)) }

// Holds reports whether the box shows text as a terminal draws it
// (clikit.BoxShows), or as the placeholder the TUI collapses a long paste
// into (whose line count must agree), the placeholders of attached
// images aside.
func (b PromptBox) Holds(text string) bool {
	shown := imageRE.ReplaceAllString(b.Text, "")
	if text == "" { // attachments alone: nothing else typed
		return strings.TrimSpace(shown) == ""
	}
	if clikit.BoxShows(shown, text) || clikit.BoxShows(b.Text, text) {
		return true
	}
	m := pastedRE.FindStringSubmatch(strings.TrimSpace(shown))
	if m == nil {
		return false
	}
	if m[1] == "" {
		return true
	}
	n, _ := strconv.Atoi(m[1])
	return n == strings.Count(strings.TrimRight(text, "\n"), "\n")
}

// Empty reports whether the box holds no text.
func (b PromptBox) Empty() bool { return strings.TrimSpace(b.Text) == "" }
