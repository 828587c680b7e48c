package codex

import (
	"fmt"
	"strings"

	"lab/internal/agent"
)

// ModePlan is the start mode that opens a run in Plan mode. On 0.171.0 no
// start flag enters it: the TUI cycles Default ↔ Plan with shift+tab, so
// a run started in it gets an opening (agent.Command.Opening) that presses
// shift+tab once the input box shows, checks the footer, and only then
// types the first prompt. Its commands run in the workspace-write sandbox.
const ModePlan = "plan"

// planFooter is what the footer says while Plan mode is on ("Plan mode
// (shift+tab to cycle)").
const planFooter = "Plan mode"

// planOpening returns the steps that switch a CLI that has just started to
// Plan mode and submit prompt ("" for none). The TUI drops a shift+tab sent
// in the first instants after its box appears, and a second press would
// cycle back, so the key is sent again only while the footer does not say
// Plan mode (agent.Step.Until).
func planOpening(prompt string) []agent.Step {
	steps := []agent.Step{
		{Kind: agent.StepExpect, Check: promptReady{}},
		{Kind: agent.StepKey, Key: "BTab", Acts: true, Until: planModeShown{}},
	}
	if prompt == "" {
		return steps
	}
	return append(steps,
		agent.Step{Kind: agent.StepExpect, Check: planModeShown{}},
		agent.Step{Kind: agent.StepPaste, Text: prompt, Acts: true},
		agent.Step{Kind: agent.StepExpect, Check: promptHolds{prompt}},
		agent.Step{Kind: agent.StepKey, Key: "Enter", Acts: true, Commit: true, Until: promptSubmitted{prompt}},
	)
}

// promptReady passes when the input box shows and holds nothing.
type promptReady struct{}

func (promptReady) Match(capture string) (string, error) {
	b, ok := ParsePrompt(capture)
	if !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if !b.Empty() {
		return "prompt", fmt.Errorf("the input box holds %q", b.Text)
	}
	return "prompt", nil
}

func (promptReady) What() string { return "an empty input box" }

// planModeShown passes when the input box shows with Plan mode on.
type planModeShown struct{}

func (planModeShown) Match(capture string) (string, error) {
	if _, ok := ParsePrompt(capture); !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if !strings.Contains(capture, planFooter) {
		return "prompt", fmt.Errorf("the footer does not say %s", planFooter)
	}
	return "prompt", nil
}

func (planModeShown) What() string { return "Plan mode in the footer" }

// promptHolds passes when the input box shows exactly text.
type promptHolds struct{ text string }

func (c promptHolds) Match(capture string) (string, error) {
	b, ok := ParsePrompt(capture)
	if !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if !b.Holds(c.text) {
		return "prompt", fmt.Errorf("the input box shows %q", b.Text)
	}
	return "prompt", nil
}

func (promptHolds) What() string { return "the input box holding the prompt" }

// promptSubmitted passes once the input box no longer holds text.
type promptSubmitted struct{ text string }

func (c promptSubmitted) Match(capture string) (string, error) {
	if b, ok := ParsePrompt(capture); ok && b.Holds(c.text) {
		return "prompt", fmt.Errorf("the input box still holds the prompt")
	}
	return "prompt", nil
}

func (promptSubmitted) What() string { return "the prompt submitted" }
