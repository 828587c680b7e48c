package claude

import (
	"fmt"
	"regexp"
	"strings"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

// Steering Claude Code between turns, as observed on 2.1.328 and 2.1.332
// (TestSwitchModeAndModel, steer_cli_test.go):
//
//   - The footer under the input box names the permission mode:
//     "⏵⏵ auto mode on", "⏸ manual mode on" (the transcript records it as
//     "default"), "⏵⏵ accept edits on", "⏸ plan mode on". Shift+Tab (BTab)
//     cycles auto → manual → accept edits → plan → auto; nothing reaches
//     the transcript until the next prompt, whose user line carries
//     permissionMode.
//   - The slash menu opens under the box as "/" is typed; its cursor row
//     reads "  ❯ /name   description". A typed name that is a whole
//     command puts the cursor on it, and Enter runs it.
//   - "/model <name>" switches and saves the choice as the default for
//     new sessions; "/model" alone opens a picker ("Select model": 1.
//     Default (recommended), 2. Opus, 3. Fable, 4. Sonnet, 5. Haiku, the
//     cursor on the current one) whose "s" key switches for this session
//     only ("Set model to Sonnet 5.5 for this session only"). lab uses the
//     picker, so a run's switch never changes the operator's defaults.

// footerModes maps the footer's words to the permission mode values.
var footerModes = []struct{ words, mode string }{
	{"auto mode on", "auto"},
	{"manual mode on", "default"},
	{"accept edits on", "acceptEdits"},
	{"plan mode on", "plan"},
	{"bypass permissions on", "bypassPermissions"},
}

// switchModes are the modes the mode-cycle key reaches.
var switchModes = []string{"auto", "default", "acceptEdits", "plan"}

// footerMode reads the mode the footer names, "" when none.
func footerMode(capture string) string {
	lines := clikit.PaneLines(capture)
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-4; i-- {
		l := lines[i]
		if !strings.Contains(l, "⏵⏵") && !strings.Contains(l, "⏸") {
			continue
		}
		for _, f := range footerModes {
			if strings.Contains(l, f.words) {
				return f.mode
			}
		}
	}
	return ""
}

// canonMode folds the new name of the default mode into the one the
// transcript records.
func canonMode(m string) string {
	if m == "manual" {
		return "default"
	}
	return m
}

// menuRowRE is the slash menu's cursor row: indented, unlike the box.
var menuRowRE = regexp.MustCompile(`^\s+❯ /(\S+)(?:\s{2,}|$)`)

// Menu reads the slash menu's cursor row.
func Menu(capture string) (string, bool) {
	lines := clikit.PaneLines(capture)
	for i := len(lines) - 1; i >= 0; i-- {
		if m := menuRowRE.FindStringSubmatch(lines[i]); m != nil {
			return m[1], true
		}
	}
	return "", false
}

// footerCheck passes once the footer names mode; its screen id is the
// mode the footer names, so a player sees each press take effect.
type footerCheck struct{ mode string }

func (c footerCheck) Match(capture string) (string, error) {
	got := footerMode(capture)
	if got != c.mode {
		return got, fmt.Errorf("footer shows mode %q", got)
	}
	return got, nil
}

func (c footerCheck) What() string { return "the footer showing mode " + c.mode }

// SwitchMode plans the presses of the mode-cycle key that bring the CLI
// to mode.
func SwitchMode(mode, capture string) ([]agent.Move, error) {
	mode = canonMode(mode)
	valid := false
	for _, m := range switchModes {
		valid = valid || m == mode
	}
	if !valid {
		return nil, conv.Errorf(conv.EInvalid, "a live Claude Code run cannot switch to mode %q; want one of %s", mode, strings.Join(switchModes, ", "))
	}
	now := footerMode(capture)
	if now == "" {
		return nil, conv.Errorf(conv.EConflict, "the CLI's footer shows no permission mode lab can read")
	}
	if now == mode {
		return nil, nil
	}
	return []agent.Move{{Key: "BTab", Times: len(footerModes), Settled: footerCheck{mode}}}, nil
}

// models are the rows of the model picker, by the value lab offers.
var models = []conv.ModelChoice{
	{Value: "default", Label: "Default", Help: "the CLI's recommended model"},
	{Value: "opus", Label: "Opus", Help: "for everyday, complex tasks"},
	{Value: "fable", Label: "Fable", Help: "most capable, for the hardest and longest tasks"},
	{Value: "sonnet", Label: "Sonnet", Help: "efficient, for routine tasks"},
	{Value: "haiku", Label: "Haiku", Help: "fastest, for quick answers"},
}

// modelPicker is the title the model picker shows.
const modelPicker = "Select model"

// pickerRows reads the model picker's rows ("4. Sonnet ✔   Sonnet 5.5 ·
// …"): each label is the text before the description column, without
// the current model's tick.
func pickerRows(capture string) []Row {
	lines := clikit.PaneLines(capture)
	top := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) == modelPicker {
			top = i
			break
		}
	}
	if top < 0 {
		return nil
	}
	rows, _ := parseRows(lines, top+1, false)
	for i := range rows {
		label, _, _ := strings.Cut(rows[i].Label, "  ")
		rows[i].Label = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(label), "✔"))
	}
	return rows
}

// rowLabel finds the picker row of a model choice: its label, or the
// label with a parenthesised note ("Default (recommended)").
func rowLabel(rows []Row, label string) int {
	for i, r := range rows {
		if r.Label == label || strings.HasPrefix(r.Label, label+" (") {
			return i
		}
	}
	return -1
}

// pickerCheck passes while the model picker shows its cursor on row at
// (at < 0: on any row).
type pickerCheck struct {
	at    int
	label string
}

func (c pickerCheck) Match(capture string) (string, error) {
	rows := pickerRows(capture)
	if len(rows) == 0 {
		return "", fmt.Errorf("no model picker on the pane")
	}
	for i, r := range rows {
		if r.Cursor && (c.at < 0 || i == c.at) {
			return modelPicker, nil
		}
	}
	return modelPicker, fmt.Errorf("the picker's cursor is not on %s", c.What())
}

func (c pickerCheck) What() string {
	if c.at < 0 {
		return "the model picker"
	}
	return "the model picker's row " + c.label
}

// switchedCheck passes once the picker is gone and the output under the
// newest "/model" echo says the switch is for this session.
type switchedCheck struct{}

func (switchedCheck) Match(capture string) (string, error) {
	if len(pickerRows(capture)) > 0 {
		return modelPicker, fmt.Errorf("the model picker is still open")
	}
	lines := clikit.PaneLines(capture)
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != cursorGlyph+" /model" {
			continue
		}
		for _, l := range lines[i+1 : min(i+4, len(lines))] {
			if strings.Contains(l, "Set model to") && strings.Contains(l, "for this session") {
				return "", nil
			}
		}
		return "", fmt.Errorf("no \"Set model to … for this session\" under the /model echo")
	}
	return "", fmt.Errorf("no /model echo on the pane")
}

func (switchedCheck) What() string { return "the model switched for this session" }

// switchAsk is the confirmation the CLI asks after the picker when the
// conversation is cached for the current model ("Switch model? … 1. Yes,
// switch to Sonnet 5.5 / 2. No, go back"); switchYes starts its row that
// goes ahead.
const (
	switchAsk = "Switch model?"
	switchYes = "Yes, switch to "
)

// askedCheck passes on the switch confirmation, or once switched.
type askedCheck struct{}

func (askedCheck) Match(capture string) (string, error) {
	if len(pickerRows(capture)) == 0 && strings.Contains(capture, switchAsk) {
		return switchAsk, nil
	}
	return switchedCheck{}.Match(capture)
}

func (askedCheck) What() string { return "the switch confirmed or asked about" }

// confirmRowCheck passes while the confirmation's cursor is on its yes
// row.
type confirmRowCheck struct{}

func (confirmRowCheck) Match(capture string) (string, error) {
	lines := clikit.PaneLines(capture)
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], switchAsk) {
			rows, _ := parseRows(lines, i+1, false)
			for _, r := range rows {
				if r.Cursor && strings.HasPrefix(r.Label, switchYes) {
					return switchAsk, nil
				}
			}
			return switchAsk, fmt.Errorf("the cursor is not on %q", switchYes+"…")
		}
	}
	return "", fmt.Errorf("no %q on the pane", switchAsk)
}

func (confirmRowCheck) What() string { return "the cursor on " + switchYes + "…" }

// confirmSwitch answers the confirmation, when the CLI asks one.
func confirmSwitch(capture string) ([]agent.Step, error) {
	if len(pickerRows(capture)) > 0 || !strings.Contains(capture, switchAsk) {
		return nil, nil
	}
	return []agent.Step{
		{Kind: agent.StepExpect, Check: confirmRowCheck{}},
		{Kind: agent.StepKey, Key: "Enter", Commit: true, Acts: true},
	}, nil
}

// SwitchModel plans the switch to model through the picker: open it, walk
// its cursor to the model's row by its label, press s (this session
// only), and confirm the switch when the CLI asks (a conversation cached
// for the current model is re-read by the new one).
func SwitchModel(model string) ([]agent.Move, error) {
	var label string
	for _, m := range models {
		if m.Value == model {
			label = m.Label
		}
	}
	if label == "" {
		return nil, conv.Errorf(conv.EInvalid, "unknown model %q for Claude Code; want one of default, opus, fable, sonnet, haiku", model)
	}
	pick := func(capture string) ([]agent.Step, error) {
		rows := pickerRows(capture)
		to := rowLabel(rows, label)
		from := -1
		for i, r := range rows {
			if r.Cursor {
				from = i
			}
		}
		if to < 0 || from < 0 {
			return nil, conv.Errorf(conv.EConflict, "the model picker shows no row %q lab can reach", label)
		}
		r := &clikit.Recipe{Pos: from, Acts: func(string) bool { return false }}
		r.Expect(pickerCheck{at: from, label: rows[from].Label})
		for r.Pos != to {
			if r.Pos < to {
				r.Key("Down")
				r.Pos++
			} else {
				r.Key("Up")
				r.Pos--
			}
			r.Expect(pickerCheck{at: r.Pos, label: rows[r.Pos].Label})
		}
		r.Steps = append(r.Steps, agent.Step{Kind: agent.StepKey, Key: "s", Commit: true, Acts: true})
		return r.Steps, nil
	}
	return []agent.Move{
		{Command: "/model", Settled: pickerCheck{at: -1}},
		{Pick: pick, Settled: askedCheck{}},
		{Pick: confirmSwitch, Settled: switchedCheck{}},
	}, nil
}

// Literal refuses a message whose first word names one of the CLI's
// built-in commands: Claude Code runs such a message as the command, and
// no escape gets past it (a leading space or newline is trimmed, an
// invisible character removed). Other slash text is taken as a message
// (TestServeSlashCommands: "/usr/bin is a folder" reaches the model); a custom command's
// name would run it too, which only the run's folder can tell.
func Literal(version, text string) (string, error) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") {
		return text, nil
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(t, "/"), " ")
	name, _, _ = strings.Cut(name, "\n")
	for _, c := range BuiltinCommands(version) {
		if c.Name == name {
			return "", conv.Errorf(conv.EConflict, "Claude Code runs a message that starts with /%s as that command, so lab cannot send it as text; send the command, or put a word before the slash", name)
		}
	}
	return text, nil
}
