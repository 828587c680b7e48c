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
// Plan mode and submit prompt ("" for none) with images attached (paths
// pasted, as mid-session: no start flag takes them here). The TUI drops a
// shift+tab sent in the first instants after its box appears, and a
// second press would cycle back, so the key is sent again only while the
// footer does not say Plan mode (agent.Step.Until).
func planOpening(prompt string, images []string) []agent.Step {
	steps := []agent.Step{
		{Kind: agent.StepExpect, Check: agent.BoxEmpty{Read: readPrompt}},
		{Kind: agent.StepKey, Key: "BTab", Acts: true, Until: planModeShown{}},
	}
	if prompt == "" && len(images) == 0 {
		return steps
	}
	steps = append(steps, agent.Step{Kind: agent.StepExpect, Check: planModeShown{}})
	return append(steps, agent.PromptSteps(readPrompt, images, prompt)...)
}

// readPrompt is ParsePrompt as an agent.PromptReader.
func readPrompt(capture string) (agent.PromptBox, bool) { return ParsePrompt(capture) }

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
