package clikit

import "lab/internal/agent"

// Recipe builds the steps of a recipe (see agent.Step) as both adapters
// write them: checkpoints, keys, pastes, the committing Enter, and the
// cursor walked row by row within a picker (never wrapping: the pickers
// do not). An adapter's recipe embeds it and adds its checkpoints (its
// Expect) and what each dialog takes.
type Recipe struct {
	Steps []agent.Step
	Pos   int // the cursor's row index (0-based) within the current picker
	// Acts is the CLI's rule for which keys wait out the picker's grace
	// before they are sent (agent.Step.Acts). Pastes and the committing
	// Enter always do.
	Acts func(key string) bool
}

// Expect adds a checkpoint.
func (r *Recipe) Expect(c agent.Check) {
	r.Steps = append(r.Steps, agent.Step{Kind: agent.StepExpect, Check: c})
}

// Key adds a named key.
func (r *Recipe) Key(k string) {
	r.Steps = append(r.Steps, agent.Step{Kind: agent.StepKey, Key: k, Acts: r.Acts(k)})
}

// Paste adds a (bracketed) paste of t.
func (r *Recipe) Paste(t string) {
	r.Steps = append(r.Steps, agent.Step{Kind: agent.StepPaste, Text: t, Acts: true})
}

// Commit adds the Enter that makes the answer final.
func (r *Recipe) Commit() {
	r.Steps = append(r.Steps, agent.Step{Kind: agent.StepKey, Key: "Enter", Commit: true, Acts: true})
}

// Move walks the cursor from Pos to row index to.
func (r *Recipe) Move(to int) {
	for ; r.Pos < to; r.Pos++ {
		r.Key("Down")
	}
	for ; r.Pos > to; r.Pos-- {
		r.Key("Up")
	}
}
