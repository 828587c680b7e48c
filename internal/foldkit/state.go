package foldkit

import "lab/internal/conv"

// SetTail records the state the latest state-moving record implies. What
// moves it is each CLI's own (its state.go says); a pending dialog
// overrides it all.
func (s *Stream) SetTail(st conv.State) { s.tail = st }

// State returns the conversational state the file alone implies:
// question while a dialog is pending, else what the last state-moving
// record says. The live layer overlays ended and permission prompts.
func (s *Stream) State() conv.State {
	if len(s.pending) > 0 {
		return conv.StateQuestion
	}
	return s.tail
}

// PendingDialog returns a copy of the dialog waiting for an answer (the
// oldest, should several be open), or nil.
func (s *Stream) PendingDialog() *conv.Dialog {
	if len(s.pending) == 0 {
		return nil
	}
	return s.At(s.pending[0]).Dialog.Clone()
}

// Running returns a copy of the newest tool call still waiting for its
// result, or nil: what a permission prompt, if one shows, is about.
func (s *Stream) Running() *conv.ToolCall {
	if len(s.running) == 0 {
		return nil
	}
	t := *s.At(s.running[len(s.running)-1]).Tool
	return &t
}
