package codex

import "lab/internal/conv"

// How the fold derives the conversational state from the rollout alone.
//
// Codex records its turns explicitly: task_started (working) and
// task_complete or turn_aborted (the turn ended: needs input), so prose
// does not have to be guessed at as Claude Code's does. A prompt, a tool
// call or output also mean working; an error event ends the turn.
// Compaction notes and other notices do not move the state. A pending
// dialog overrides all of that: question, and only then. A tool approval
// prompt is never in the rollout: the live layer overlays it from the
// PermissionRequest hook and the pane.

// State returns the conversational state the rollout alone implies:
// question while a dialog is pending, else what the last state-moving
// record says.
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
// output, or nil: what an approval prompt, if one shows, is about.
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
