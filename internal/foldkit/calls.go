package foldkit

import (
	"time"

	"lab/internal/conv"
)

// PushTool appends a tool call's chip and files it under its id; a call
// pushed running joins the running set until Settle.
func (s *Stream) PushTool(tc *conv.ToolCall, t time.Time) int {
	i := s.Push(conv.Message{Kind: conv.KindTool, Time: t, Tool: tc})
	if tc.ID != "" {
		s.calls[tc.ID] = i
	}
	if tc.Status == conv.ToolRunning {
		s.running = append(s.running, i)
	}
	return i
}

// PushDialog appends a dialog, files it under its ToolID and makes it
// pending until Resolve.
func (s *Stream) PushDialog(d *conv.Dialog, t time.Time) int {
	i := s.Push(conv.Message{Kind: conv.KindDialog, Time: t, Dialog: d})
	if d.ToolID != "" {
		s.calls[d.ToolID] = i
	}
	s.pending = append(s.pending, i)
	return i
}

// Call returns the index of the tool or dialog message filed under id.
func (s *Stream) Call(id string) (int, bool) {
	i, ok := s.calls[id]
	return i, ok
}

// ResultFor returns the index of the message a result for call id
// belongs to. A result whose call was never seen is remembered as an
// orphan, so Resolved reports its id resolved.
func (s *Stream) ResultFor(id string) (int, bool) {
	i, ok := s.calls[id]
	if !ok && id != "" {
		s.orphans[id] = true
	}
	return i, ok
}

// Result applies a result for call id: the agent resumes with it (the
// tail is working again); a dialog still pending is handed to dialog to
// resolve (a resolved one keeps its first resolution), a tool to tool to
// settle and fill. A result whose call was never seen is an orphan (see
// ResultFor).
func (s *Stream) Result(id string, dialog func(i int, d *conv.Dialog), tool func(i int, tc *conv.ToolCall)) {
	i, ok := s.ResultFor(id)
	if !ok {
		return
	}
	s.SetTail(conv.StateWorking)
	m := s.At(i)
	if d := m.Dialog; d != nil {
		if d.Outcome == nil {
			dialog(i, d)
		}
		return
	}
	tool(i, m.Tool)
}

// Settle drops the tool at index i from the running set.
func (s *Stream) Settle(i int) {
	for k, r := range s.running {
		if r == i {
			s.running = append(s.running[:k], s.running[k+1:]...)
			return
		}
	}
}

// Resolved reports whether the file shows call id resolved: its tool has
// a result or its dialog an outcome.
func (s *Stream) Resolved(toolID string) bool {
	if i, ok := s.calls[toolID]; ok {
		m := s.At(i)
		if m.Dialog != nil {
			return m.Dialog.Outcome != nil
		}
		return m.Tool != nil && m.Tool.Status != conv.ToolRunning
	}
	return s.orphans[toolID]
}
