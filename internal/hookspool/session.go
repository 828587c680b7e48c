package hookspool

import (
	"slices"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Current is what every spool says of its run now; an adapter's spool
// state embeds it and adds what its CLI's events mean beyond it.
type Current[P Payload] struct {
	// SessionID and TranscriptPath come from the latest SessionStart (a
	// /clear, or Codex's plan picker's "clear context", starts a new
	// session and transcript), else from the latest event of any kind.
	SessionID      string
	TranscriptPath string
	Source         string // the latest SessionStart's source
	Model          string
	// Pending are the PreToolUse payloads of the current session's dialog
	// tool calls (which tools: the adapter's) not yet resolved, oldest
	// first. A call is resolved by its PostToolUse, by a later Stop or
	// UserPromptSubmit of the same session (the picker must have closed
	// for either to happen), or by Retire.
	Pending []P
	// The latest prompt and turn end of the current session, nil when
	// none.
	LastPrompt P
	LastStop   P
	// Events counts the payloads read, for diagnostics.
	Events int
}

// PendingTool returns the pending PreToolUse for toolUseID.
func (c Current[P]) PendingTool(toolUseID string) (P, bool) {
	for _, e := range c.Pending {
		if e.Hook().ToolUseID == toolUseID {
			return e, true
		}
	}
	var none P
	return none, false
}

// Side is c in the provider-neutral shape (agent.Side): the session, the
// pending dialogs (built by dialog from a call's tool, id and input; nil
// for none), the last prompt and turn end. The adapter adds its
// permission dialogs and what the operator is waiting on.
func (c Current[P]) Side(dialog func(tool, id string, input []byte) *conv.Dialog) agent.SideState {
	out := agent.SideState{SessionID: c.SessionID, TranscriptPath: c.TranscriptPath, Source: c.Source}
	for _, p := range c.Pending {
		e := p.Hook()
		if d := dialog(e.ToolName, e.ToolUseID, e.ToolInput); d != nil {
			out.Pending = append(out.Pending, d)
		}
	}
	var none P
	if c.LastPrompt != none {
		out.Prompt, out.PromptAt = c.LastPrompt.Hook().Prompt, c.LastPrompt.Hook().Time
	}
	if c.LastStop != none {
		out.TurnEndAt = c.LastStop.Hook().Time
	}
	return out
}

// Calls are a session's open tool calls, by id, in the order they
// started.
type Calls[P Payload] struct {
	open  map[string]P
	order []string
}

func (c *Calls[P]) start(e P) {
	id := e.Hook().ToolUseID
	if _, dup := c.open[id]; !dup {
		c.order = append(c.order, id)
	}
	c.open[id] = e
}

// Get returns the open call id.
func (c *Calls[P]) Get(id string) (P, bool) {
	e, ok := c.open[id]
	return e, ok
}

// Newest returns the newest open call that match accepts.
func (c *Calls[P]) Newest(match func(P) bool) (P, bool) {
	for i := len(c.order) - 1; i >= 0; i-- {
		if e, ok := c.open[c.order[i]]; ok && match(e) {
			return e, true
		}
	}
	var none P
	return none, false
}

// Open returns the open calls, oldest first.
func (c *Calls[P]) Open() []P {
	var out []P
	for _, id := range c.order {
		// An id closed and started again stands twice in order; the open
		// calls are few, so a look back finds it.
		if e, ok := c.open[id]; ok && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// Walk finds the current session of evs (all of a spool's events, in hook
// start order) and walks its events in order, tracking its tool calls: a
// PreToolUse whose id is not retired opens its call, its PostToolUse
// closes it, and a Stop or a UserPromptSubmit closes them all. visit sees
// each event of the session once calls reflect it. keep names the files
// cur depends on (the latest SessionStart, prompt and Stop); the adapter
// adds those its own state needs. With no event naming a session, cur
// holds only the count and visit is never called.
func Walk[P Payload](evs []P, retired map[string]bool, visit func(e P, calls *Calls[P])) (cur Current[P], calls *Calls[P], keep map[string]bool) {
	cur.Events = len(evs)
	calls = &Calls[P]{open: map[string]P{}}
	keep = map[string]bool{}
	var start, latest *Event
	for _, p := range evs {
		e := p.Hook()
		if e.SessionID == "" {
			continue
		}
		latest = e
		if e.Name == SessionStart {
			start = e
		}
	}
	at := start
	if at == nil {
		at = latest
	}
	if at == nil {
		return cur, calls, keep
	}
	cur.SessionID, cur.TranscriptPath = at.SessionID, at.TranscriptPath
	if start != nil {
		cur.Source, cur.Model = start.Source, start.Model
		keep[start.File] = true
	}
	for _, p := range evs {
		e := p.Hook()
		if e.SessionID != cur.SessionID {
			continue
		}
		switch e.Name {
		case PreToolUse:
			if e.ToolUseID != "" && !retired[e.ToolUseID] {
				calls.start(p)
			}
		case PostToolUse:
			delete(calls.open, e.ToolUseID)
		case Stop:
			clear(calls.open)
			cur.LastStop = p
		case UserPromptSubmit:
			clear(calls.open)
			cur.LastPrompt = p
		}
		visit(p, calls)
	}
	var none P
	for _, p := range []P{cur.LastStop, cur.LastPrompt} {
		if p != none {
			keep[p.Hook().File] = true
		}
	}
	return cur, calls, keep
}
