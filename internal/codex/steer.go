package codex

import (
	"fmt"
	"regexp"
	"strings"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Steering the Codex CLI between turns, as observed on 0.171.0
// (TestSteerCodex in codextest):
//
//   - Shift+Tab (BTab) cycles Default ↔ Plan mode; the footer says "Plan
//     mode (shift+tab to cycle)" while it is on, and each switch leaves a
//     note ("• Model changed to gpt-5.5 medium for Plan mode.").
//   - "/permissions <profile>" applies a permission profile at once
//     (":read-only", ":workspace", ":danger-full-access"; the last asks
//     "Enable full access?" first, "1. Yes, continue anyway"); the history
//     says "• Permission selection requested: Read Only" and the rollout
//     records thread_settings_applied with the profile's id.
//   - "/model <slug>" switches for this session only ("• Model changed to
//     gpt-5.6-sol low for this session only"), recorded the same way; the
//     status line under the box names the model ("GPT-5.6-Sol low · …").
//     An unknown slug is refused ("■ Model 'x' is unavailable").
//   - The slash menu sits above the input box; its cursor row reads
//     "› /name   description".

// switchModes are the modes a live run can switch to: the sandboxes and
// Plan mode.
var switchModes = []string{SandboxWorkspaceWrite, SandboxReadOnly, SandboxFullAccess, ModePlan}

// sandboxProfiles are the /permissions profiles of the sandbox modes and
// the names the history calls them.
var sandboxProfiles = map[string]struct{ profile, shown string }{
	SandboxReadOnly:       {":read-only", "Read Only"},
	SandboxWorkspaceWrite: {":workspace", "Ask for approval"},
	SandboxFullAccess:     {":danger-full-access", "Full Access"},
}

// models are the /model picker's entries on 0.171.0, by slug.
var models = []conv.ModelChoice{
	{Value: "gpt-6.2-sol", Label: "GPT-6.2-Sol", Help: "fast, go-to model for coding and everyday work"},
	{Value: "gpt-6.2-astra", Label: "GPT-6.2-Astra", Help: "most capable, for complex coding and professional work"},
	{Value: "gpt-6.1-terra", Label: "GPT-6.1 Terra", Help: "efficient; excels at visual understanding and computer use"},
	{Value: "gpt-6.1-sol", Label: "GPT-6.1-Sol", Help: "previous generation, for coding and everyday work"},
	{Value: "gpt-6-astra", Label: "GPT-6-Astra", Help: "previous generation, for complex coding"},
	{Value: "gpt-6-sol", Label: "GPT-6-Sol", Help: "legacy, for coding and everyday work"},
	{Value: "gpt-6-luna", Label: "GPT-6-Luna", Help: "fast and affordable, for easier tasks"},
	{Value: "gpt-5.6-sol", Label: "GPT-5.6-Sol", Help: "legacy, for coding and everyday work"},
	{Value: "gpt-5.6-terra", Label: "GPT-5.6-Terra", Help: "legacy, balanced for agentic coding"},
	{Value: "gpt-5.6-luna", Label: "GPT-5.6-Luna", Help: "legacy, fast, for simpler tasks"},
	{Value: "gpt-5.5", Label: "GPT-5.5", Help: "legacy coding model"},
}

// inputLine is the index of the input box's first line, -1 when none.
func inputLine(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], cursorGlyph+" ") || lines[i] == cursorGlyph {
			return i
		}
	}
	return -1
}

// menuRowRE is a row of the slash menu; the cursor row starts with ›.
var menuRowRE = regexp.MustCompile(`^(› |  )/(\S+)\s{2,}\S`)

// Menu reads the slash menu's cursor row: the menu is the block of rows
// right above the input box.
func Menu(capture string) (string, bool) {
	lines := paneLines(capture)
	in := inputLine(lines)
	open := false
	for i := in - 1; i >= 0; i-- {
		m := menuRowRE.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.TrimSpace(lines[i]) == "" && !open {
				continue
			}
			break
		}
		open = true
		if m[1] == cursorGlyph+" " {
			return m[2], true
		}
	}
	return "", false
}

// statusModel reads the model the status line under the input box names
// ("GPT-5.5 default · /work"), as a slug; "" when it names none lab
// knows.
func statusModel(capture string) string {
	lines := paneLines(capture)
	in := inputLine(lines)
	if in < 0 {
		return ""
	}
	for _, l := range lines[in+1:] {
		head, _, ok := strings.Cut(strings.TrimSpace(l), " · ")
		if !ok {
			continue
		}
		best := ""
		for _, m := range models {
			if (head == m.Label || strings.HasPrefix(head, m.Label+" ")) && len(m.Label) > len(best) {
				best = m.Label
			}
		}
		for _, m := range models {
			if m.Label == best {
				return m.Value
			}
		}
		return ""
	}
	return ""
}

// planOn is the whole footer of Plan mode: "Plan mode" alone also ends
// the note a switch leaves ("Model changed to gpt-5.5 medium for Plan
// mode.").
const planOn = planFooter + " (shift+tab to cycle)"

// planShown reports whether the footer says Plan mode (with the input box
// on the pane).
func planShown(capture string) bool {
	_, ok := ParsePrompt(capture)
	return ok && strings.Contains(capture, planOn)
}

// Settings are what the screen shows: Plan mode when the footer says so,
// and the model of the status line.
func Settings(capture string) conv.Settings {
	s := conv.Settings{Model: statusModel(capture)}
	if planShown(capture) {
		s.Mode = ModePlan
	}
	return s
}

// planCheck passes once the footer shows Plan mode on (or off); its screen
// id says which, so a player sees each press take effect.
type planCheck struct{ on bool }

func (c planCheck) Match(capture string) (string, error) {
	if _, ok := ParsePrompt(capture); !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	on := strings.Contains(capture, planOn)
	id := "default"
	if on {
		id = ModePlan
	}
	if on != c.on {
		return id, fmt.Errorf("the footer shows %s mode", id)
	}
	return id, nil
}

func (c planCheck) What() string {
	if c.on {
		return "Plan mode in the footer"
	}
	return "the footer without Plan mode"
}

// lastNote is the newest history note above the input box: a line
// starting with • or ■ (its text), "" when none.
func lastNote(capture string) string {
	lines := paneLines(capture)
	in := inputLine(lines)
	for i := in - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "•") || strings.HasPrefix(t, "■") {
			return strings.TrimSpace(strings.TrimLeft(t, "•■"))
		}
	}
	return ""
}

// noteCheck passes once the newest note above the box starts with want
// and the box shows.
type noteCheck struct{ want string }

func (c noteCheck) Match(capture string) (string, error) {
	if _, ok := ParsePrompt(capture); !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if got := lastNote(capture); !strings.HasPrefix(got, c.want) {
		return "prompt", fmt.Errorf("the newest note reads %q", got)
	}
	return "prompt", nil
}

func (c noteCheck) What() string { return fmt.Sprintf("the note %q", c.want) }

// fullAccessAsk is the confirmation the full-access profile asks first;
// fullAccessYes its row that goes ahead.
const (
	fullAccessAsk = "Enable full access?"
	fullAccessYes = "Yes, continue anyway"
)

// confirmCheck passes on the full-access confirmation, or once the
// profile is applied (some sessions may not ask).
type confirmCheck struct{ done noteCheck }

func (c confirmCheck) Match(capture string) (string, error) {
	if strings.Contains(capture, fullAccessAsk) {
		return fullAccessAsk, nil
	}
	return c.done.Match(capture)
}

func (c confirmCheck) What() string { return "the full access confirmation, or " + c.done.What() }

// confirmRow passes while the confirmation's cursor is on its yes row.
type confirmRow struct{}

func (confirmRow) Match(capture string) (string, error) {
	if !strings.Contains(capture, fullAccessAsk) {
		return "", fmt.Errorf("no full access confirmation on the pane")
	}
	for _, l := range paneLines(capture) {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, cursorGlyph) && strings.Contains(t, fullAccessYes) {
			return fullAccessAsk, nil
		}
	}
	return fullAccessAsk, fmt.Errorf("the cursor is not on %q", fullAccessYes)
}

func (confirmRow) What() string { return fmt.Sprintf("the cursor on %q", fullAccessYes) }

// SwitchMode plans the switch to mode: Plan mode is the cycle key, a
// sandbox "/permissions" with its profile (after leaving Plan mode).
func SwitchMode(mode string, capture string) ([]agent.Move, error) {
	if _, ok := ParsePrompt(capture); !ok {
		return nil, conv.Errorf(conv.EConflict, "the CLI is not showing its input box")
	}
	plan := planShown(capture)
	if mode == ModePlan {
		if plan {
			return nil, nil
		}
		return []agent.Move{{Key: "BTab", Times: 2, Settled: planCheck{on: true}}}, nil
	}
	p, ok := sandboxProfiles[mode]
	if !ok {
		return nil, conv.Errorf(conv.EInvalid, "a live Codex run cannot switch to mode %q; want one of %s", mode, strings.Join(switchModes, ", "))
	}
	var moves []agent.Move
	if plan {
		moves = append(moves, agent.Move{Key: "BTab", Times: 2, Settled: planCheck{on: false}})
	}
	done := noteCheck{"Permission selection requested: " + p.shown}
	if mode != SandboxFullAccess {
		return append(moves, agent.Move{Command: "/permissions " + p.profile, Settled: done}), nil
	}
	confirm := func(capture string) ([]agent.Step, error) {
		if !strings.Contains(capture, fullAccessAsk) {
			return nil, nil // applied without asking
		}
		return []agent.Step{
			{Kind: agent.StepExpect, Check: confirmRow{}},
			{Kind: agent.StepKey, Key: "Enter", Commit: true, Acts: true},
		}, nil
	}
	return append(moves,
		agent.Move{Command: "/permissions " + p.profile, Settled: confirmCheck{done}},
		agent.Move{Pick: confirm, Settled: done}), nil
}

// SwitchModel plans "/model <slug>" for a model of the table.
func SwitchModel(model string) ([]agent.Move, error) {
	for _, m := range models {
		if m.Value == model {
			return []agent.Move{{Command: "/model " + model, Settled: noteCheck{"Model changed to " + model + " "}}}, nil
		}
	}
	var known []string
	for _, m := range models {
		known = append(known, m.Value)
	}
	return nil, conv.Errorf(conv.EInvalid, "unknown model %q for Codex; want one of %s", model, strings.Join(known, ", "))
}

// Literal types a message that starts with a slash after a space: the
// TUI takes a line that starts with "/" as a command ("Unrecognized
// command" for a word it has none for), but one that starts with a space
// as a message, which it sends without the space
// (TestServeCodexSlashCommands).
func Literal(text string) string {
	if strings.HasPrefix(strings.TrimLeft(text, " \t\n"), "/") {
		return " " + strings.TrimLeft(text, " \t\n")
	}
	return text
}
