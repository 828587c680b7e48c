package codex

import (
	"regexp"
	"strconv"
	"strings"

	"lab/internal/clikit"
)

// This file reads a captured tmux pane of the Codex TUI and finds the
// picker on it, if any: which screen it is (a request_user_input question,
// the "Implement this plan?" picker after a proposed plan, a tool approval
// prompt), the rows it offers and which row the cursor (›) is on. Recipes
// use it to confirm, before a committing key, that the cursor is where
// the recipe meant it to be.
//
// The parser reads only plain text (tmux capture-pane without escapes), so
// it relies on the words and glyphs the TUI prints, as seen on 0.171.0:
//
//	  Question 1/2 (2 unanswered)              a question's header
//	  Which color do you prefer?               its text (may wrap)
//	  › 1. Red                Warm             a row: label, description
//	    4. None of the above  Optionally, add details in notes (tab)
//	  › warm tones please                      the notes field, when open
//	  tab to add notes | enter to submit answer | …
//
//	  Implement this plan?                     the plan picker
//	› 1. Yes, implement this plan          Switch to Default and start coding
//
//	  Would you like to run the following command?    a tool approval
//	  Reason: …    $ the command    Destination: …
//	› 1. Yes, proceed (y)                      a row and its shortcut key

// ScreenKind says which picker a pane shows. The names clikit gives every
// CLI are bound here, beside this CLI's own screens (a per-CLI binding).
type ScreenKind = clikit.ScreenKind

const (
	ScreenNone     = clikit.ScreenNone
	ScreenQuestion = clikit.ScreenQuestion // one question of a request_user_input call
	ScreenPlan     = clikit.ScreenPlan     // "Implement this plan?"
	// ScreenApproval is a tool approval prompt.
	ScreenApproval ScreenKind = "approval"
)

// Row is one selectable row of a picker.
type Row struct {
	Number      int      `json:"number"` // the number the TUI shows (1-based)
	Label       string   `json:"label"`
	Description string   `json:"description,omitempty"` // the right-hand column (questions, plans)
	Key         string   `json:"key,omitempty"`         // an approval row's shortcut: y, p, a, esc
	Cursor      bool     `json:"cursor,omitempty"`
	More        []string `json:"more,omitempty"` // following lines: wrapped text
}

// Screen is the picker a pane shows.
type Screen struct {
	Kind ScreenKind `json:"kind"`
	// Question screens: which of how many, the question text (lines joined
	// by spaces), and the notes field when it is open ("" shown as its
	// placeholder counts as empty).
	Index     int    `json:"index,omitempty"`
	Count     int    `json:"count,omitempty"`
	Question  string `json:"question,omitempty"`
	NotesOpen bool   `json:"notes_open,omitempty"`
	Notes     string `json:"notes,omitempty"`
	// Prompt is the plan or approval picker's title line.
	Prompt string `json:"prompt,omitempty"`
	// Approval screens: the labelled lines above the rows (Environment,
	// Reason, Description, Destination) and the command after "$ ".
	Fields  map[string]string `json:"fields,omitempty"`
	Command string            `json:"command,omitempty"`
	Rows    []Row             `json:"rows,omitempty"`
}

// Cursor returns the row under the cursor, or nil when no row has it.
func (s *Screen) Cursor() *Row { return clikit.FindRow(s.Rows, func(r *Row) bool { return r.Cursor }) }

// Row returns the row whose label is label (compared without white
// space), or nil.
func (s *Screen) Row(label string) *Row {
	return clikit.FindRow(s.Rows, func(r *Row) bool { return r.RowShows(label) })
}

const cursorGlyph = "›"

var (
	// rowRE matches a numbered row: optional cursor, number, dot, text.
	rowRE = regexp.MustCompile(`^\s*(›)?\s*(\d+)\.\s(.*)$`)
	// questionRE matches a question's header.
	questionRE = regexp.MustCompile(`^\s*Question (\d+)/(\d+)\b`)
	// columnGapRE separates a row's label from its description.
	columnGapRE = regexp.MustCompile(`\s{2,}`)
	// keyRE finds an approval row's shortcut at the end of its text.
	keyRE = regexp.MustCompile(`\s\(([a-z]|esc)\)$`)
	// fieldRE matches an approval's labelled line.
	fieldRE = regexp.MustCompile(`^\s*(Environment|Reason|Description|Destination|Permissions|Host|Path): (.*)$`)
)

// planMarker is the plan picker's title; approvalMarkers start the title
// of a tool approval prompt.
const planMarker = "Implement this plan?"

var approvalMarkers = []string{"Would you like to run the following command?", "Would you like to make the following edits?", "Would you like to "}

// notesPlaceholder is what the open, empty notes field shows.
const notesPlaceholder = "Add notes"

// ParseScreen finds the picker on a captured pane. A pane with no picker
// yields Kind ScreenNone. The picker is the bottom-most block: the last
// question header or title line wins, so a chat history above that quotes
// such words is not mistaken for it.
func ParseScreen(capture string) *Screen {
	lines := paneLines(capture)
	s := &Screen{}
	head := -1
	for i := len(lines) - 1; i >= 0 && head < 0; i-- {
		l := strings.TrimSpace(lines[i])
		switch {
		case questionRE.MatchString(lines[i]):
			s.Kind, head = ScreenQuestion, i
		case l == planMarker:
			s.Kind, head = ScreenPlan, i
		case isApprovalTitle(l):
			s.Kind, head = ScreenApproval, i
		}
	}
	if head < 0 {
		return s
	}
	var first int
	s.Rows, first = parseRows(lines, head+1, s.Kind != ScreenApproval)
	if len(s.Rows) == 0 {
		return &Screen{} // a title without rows is history, not a picker
	}
	switch s.Kind {
	case ScreenQuestion:
		m := questionRE.FindStringSubmatch(lines[head])
		s.Index, _ = strconv.Atoi(m[1])
		s.Count, _ = strconv.Atoi(m[2])
		s.Question = joinText(lines[head+1 : first])
		s.NotesOpen, s.Notes = parseNotes(lines, first)
	case ScreenPlan:
		s.Prompt = strings.TrimSpace(lines[head])
	case ScreenApproval:
		s.Prompt = strings.TrimSpace(lines[head])
		s.Fields, s.Command = parseApprovalBody(lines[head+1 : first])
	}
	return s
}

func isApprovalTitle(l string) bool {
	if !strings.HasSuffix(l, "?") {
		return false
	}
	for _, m := range approvalMarkers {
		if strings.HasPrefix(l, m) {
			return true
		}
	}
	return false
}

// paneLines splits a capture into lines without trailing white space.
func paneLines(capture string) []string { return clikit.PaneLines(capture) }

type rowAt struct {
	line int
	row  Row
}

// parseRows collects the picker's rows from line start on (Codex's rule;
// Claude Code takes the last run): the first run of consecutively numbered
// rows 1..n, each with its continuation lines. Columns split a row into
// label and description when columns is set; approval rows carry their
// shortcut key instead. It returns the rows and the line of the first one
// (len(lines) when none).
func parseRows(lines []string, start int, columns bool) ([]Row, int) {
	var rows []rowAt
	for i := start; i < len(lines); i++ {
		m := rowRE.FindStringSubmatch(lines[i])
		if m == nil {
			if len(rows) > 0 && !continues(lines[i]) {
				break
			}
			if len(rows) > 0 {
				r := &rows[len(rows)-1].row
				r.More = append(r.More, strings.TrimSpace(lines[i]))
			}
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if n != len(rows)+1 {
			break // a numbered list in the text below, or a new run
		}
		r := Row{Number: n, Cursor: m[1] != ""}
		text := strings.TrimSpace(m[3])
		if columns {
			if parts := columnGapRE.Split(text, 2); len(parts) == 2 {
				r.Label, r.Description = parts[0], parts[1]
			} else {
				r.Label = text
			}
		} else {
			r.Label = text
		}
		rows = append(rows, rowAt{i, r})
	}
	if len(rows) == 0 {
		return nil, len(lines)
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		if !columns {
			finishApprovalRow(&r.row)
		}
		out[i] = r.row
	}
	return out, rows[0].line
}

// continues reports whether a line may continue the row above it (wrapped
// text, indented more than a row's number): blank lines and the footer end
// the rows.
func continues(l string) bool {
	return strings.TrimSpace(l) != "" && strings.HasPrefix(l, "     ") && !strings.Contains(l, cursorGlyph)
}

// finishApprovalRow moves an approval row's shortcut, "(y)" at the end of
// its text (of its last wrapped line when it wraps), into Key, and joins
// the wrapped lines into the label.
func finishApprovalRow(r *Row) {
	text := r.Label
	if len(r.More) > 0 {
		text += " " + strings.Join(r.More, " ")
		r.More = nil
	}
	if m := keyRE.FindStringSubmatchIndex(text); m != nil {
		r.Key = text[m[2]:m[3]]
		text = text[:m[0]]
	}
	r.Label = strings.TrimSpace(text)
}

// parseNotes finds the notes field below a question's rows: a line with
// the cursor glyph that is not a row, before the footer.
func parseNotes(lines []string, first int) (open bool, notes string) {
	for i := first; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if rowRE.MatchString(lines[i]) || l == "" {
			continue
		}
		if strings.Contains(l, "enter to submit") || strings.Contains(l, "to add notes") {
			return open, notes
		}
		if t, ok := strings.CutPrefix(l, cursorGlyph); ok {
			open = true
			notes = strings.TrimSpace(t)
			if notes == notesPlaceholder {
				notes = ""
			}
			continue
		}
		if open {
			notes += " " + l // wrapped notes
		}
	}
	return open, notes
}

// parseApprovalBody reads the labelled lines and the "$ command" line of
// an approval prompt.
func parseApprovalBody(lines []string) (map[string]string, string) {
	fields := map[string]string{}
	var cmd []string
	inCmd := false
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		switch {
		case l == "":
			inCmd = false
		case fieldRE.MatchString(raw):
			m := fieldRE.FindStringSubmatch(raw)
			fields[m[1]] = strings.TrimSpace(m[2])
			inCmd = false
		case strings.HasPrefix(l, "$ "):
			cmd = append(cmd, strings.TrimPrefix(l, "$ "))
			inCmd = true
		case inCmd:
			cmd = append(cmd, l)
		}
	}
	if len(fields) == 0 {
		fields = nil
	}
	return fields, strings.Join(cmd, " ")
}

// joinText joins the non-blank lines of a block with single spaces.
func joinText(lines []string) string {
	var parts []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// RowShows reports whether the row's label, possibly wrapped onto its
// continuation lines, is exactly want.
func (r *Row) RowShows(want string) bool { return clikit.RowShows(r.Label, r.More, want) }

// PromptBox is the CLI's input box: the line starting with the › prompt at
// the left edge, with its continuation lines, above the status line.
type PromptBox struct {
	Text string // the box's text, lines joined by "\n", prompt glyph removed
}

// placeholders are what an empty box shows in dim text, which a plain
// capture cannot tell from typed text (0.171.0).
var placeholders = []string{"Ask Codex to do anything", "Ask a follow-up question"}

// pastedRE is how the TUI shows a long paste it collapsed.
var pastedRE = regexp.MustCompile(`^\[Pasted Content (\d+) chars\]$`)

// ParsePrompt finds the input box on a captured pane. It returns false
// when the pane shows a picker instead (a question, plan or approval has
// the focus) or no box at all. The box is the last line that starts with
// the › prompt at the left edge (the chat above echoes prompts indented or
// as history, pickers number their rows), with the lines that continue it
// (blank ones among them) up to the blank line above the status line.
func ParsePrompt(capture string) (PromptBox, bool) {
	if ParseScreen(capture).Kind != ScreenNone {
		return PromptBox{}, false
	}
	lines := paneLines(capture)
	start := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], cursorGlyph+" ") || lines[i] == cursorGlyph {
			start = i
			break
		}
	}
	if start < 0 {
		return PromptBox{}, false
	}
	// Below the box: a blank line, then the status line (model, folder),
	// the last line so placed; the box may hold blank lines of its own.
	status := -1
	for k := len(lines) - 1; k > start+1; k-- {
		if strings.TrimSpace(lines[k-1]) == "" && strings.Contains(lines[k], " · ") {
			status = k
			break
		}
	}
	if status < 0 {
		return PromptBox{}, false
	}
	end := status - 1
	for end > start+1 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	text := []string{strings.TrimPrefix(strings.TrimPrefix(lines[start], cursorGlyph), " ")}
	for k := start + 1; k < end; k++ {
		text = append(text, strings.TrimPrefix(lines[k], "  "))
	}
	t := strings.Join(text, "\n")
	for _, p := range placeholders {
		if t == p {
			t = ""
		}
	}
	return PromptBox{Text: t}, true
}

// Attached counts the images the box shows attached.
func (b PromptBox) Attached() int { return len(imageRE.FindAllStringIndex(b.Text, -1)) }

// Holds reports whether the box shows text as a terminal draws it
// (clikit.BoxShows), or as the placeholder the TUI collapses a long paste
// into (whose size must agree), the placeholders of attached images
// aside.
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
	n, _ := strconv.Atoi(m[1])
	return n == len([]rune(text))
}

// Empty reports whether the box holds no text.
func (b PromptBox) Empty() bool { return strings.TrimSpace(b.Text) == "" }

// Shown is the box's text (agent.PromptBox).
func (b PromptBox) Shown() string { return b.Text }
