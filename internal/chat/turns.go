package chat

import (
	"time"

	"lab/internal/conv"
)

// TurnFunc hears where a followed run's turns stand: prompts is how many
// of the operator's prompts its chat holds (since the run started: the
// earlier turns of a resumed session are not counted), state its
// conversational state. A turn has ended when state is needs_input or
// idle with more prompts than at the last end; ended says the run is
// gone. It is called on every change of either, in order, with the
// run's lock held: it must return at once (hand the work to another
// goroutine).
type TurnFunc func(runID string, prompts int, state conv.State)

// turns counts a live run's prompts as its stream grows and reports
// changes. The live view keeps it under its lock.
type turns struct {
	runID  string
	since  time.Time // the run's start: older prompts belong to a resumed session
	report TurnFunc

	view    *View // the transcript counted
	seq     int   // the last seq counted in it
	count   int   // prompts in it so far
	earlier int   // prompts of the run's earlier transcripts (before a /clear)

	last struct {
		prompts int
		state   conv.State
		sent    bool
	}
}

// observe counts what the view gained and reports a change of the
// prompts or state. Called with l.mu held.
func (t *turns) observe(v *View, state conv.State) {
	if t == nil {
		return
	}
	if v != t.view {
		if t.view != nil {
			t.earlier += t.count // a new session in the same run (/clear)
		}
		t.view, t.seq, t.count = v, 0, 0
	}
	if v != nil {
		if n := v.Len(); n < t.seq {
			t.seq, t.count = 0, 0 // the transcript was replaced: count again
		}
		for v.Len() > t.seq {
			page := v.Page(conv.Query{After: t.seq, Limit: 500})
			if len(page.Messages) == 0 {
				break
			}
			for _, m := range page.Messages {
				if m.Kind == conv.KindText && m.Role == conv.RoleUser && (m.Time.IsZero() || !m.Time.Before(t.since)) {
					t.count++
				}
			}
			t.seq = page.LastSeq
		}
	}
	t.send(t.earlier+t.count, state)
}

// end reports that the run is gone, with the prompts last counted.
func (t *turns) end() {
	if t != nil {
		t.send(t.earlier+t.count, conv.StateEnded)
	}
}

// send reports (prompts, state) when it differs from the last report.
func (t *turns) send(prompts int, state conv.State) {
	if t.last.sent && t.last.prompts == prompts && t.last.state == state {
		return
	}
	t.last.prompts, t.last.state, t.last.sent = prompts, state, true
	t.report(t.runID, prompts, state)
}
