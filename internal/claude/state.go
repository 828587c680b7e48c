package claude

import "lab/internal/conv"

// How the fold derives the conversational state from the transcript alone.
//
// Every state-moving record sets f.tail: a prompt, a thinking block, a tool
// call or result, and an answered dialog mean the agent is working; prose
// without a following tool call, an interrupt, a failed request and the
// end-of-turn record mean it needs input. Slash-command echoes, their
// output, compaction notes and desync warnings do not move it. A pending
// dialog overrides all of that: question, and only then.

// State returns the conversational state the transcript alone implies:
// question while a dialog is pending, else what the last state-moving
// record says. The live layer overlays ended and permission prompts.
func (f *Fold) State() conv.State {
	if len(f.pending) > 0 {
		return conv.StateQuestion
	}
	return f.tail
}

// PendingDialog returns a copy of the dialog waiting for an answer (the
// oldest, should several be open), or nil.
func (f *Fold) PendingDialog() *conv.Dialog {
	if len(f.pending) == 0 {
		return nil
	}
	return f.at(f.pending[0]).Dialog.Clone()
}

// Running returns a copy of the newest tool call still waiting for its
// result, or nil.
func (f *Fold) Running() *conv.ToolCall {
	if len(f.running) == 0 {
		return nil
	}
	t := *f.at(f.running[len(f.running)-1]).Tool
	return &t
}

// settled drops the tool at index i from the running set.
func (f *Fold) settled(i int) {
	for k, r := range f.running {
		if r == i {
			f.running = append(f.running[:k], f.running[k+1:]...)
			return
		}
	}
}
