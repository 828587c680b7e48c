package chat

import (
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// activity is what a live run shows besides its stream: the runs list's
// last activity and preview, and the chat's working row (since when, the
// tool running now; the warning when the turn is stuck comes from the
// pane, see looker). The live view keeps it under its lock.
type activity struct {
	lastAt  time.Time // the newest message's time
	preview string    // the newest message that reads as a line
	// workingSince is when the current stretch of work began: the prompt
	// the hooks saw, else when lab first saw the run working.
	workingSince time.Time
}

// noteActivity updates the activity after a refresh; changed says the
// stream changed. Called with l.mu held.
func (l *live) noteActivity(st agent.SideState, changed bool, now time.Time) {
	a := &l.act
	if changed && l.view != nil {
		if msgs := l.view.Page(conv.Query{Limit: previewBack}).Messages; len(msgs) > 0 {
			a.preview = streamPreview(msgs)
			if m := msgs[len(msgs)-1]; !m.Time.IsZero() {
				a.lastAt = m.Time
			}
		}
	}
	if l.state != conv.StateWorking {
		a.workingSince = time.Time{}
		return
	}
	if a.workingSince.IsZero() {
		a.workingSince = now
		// The prompt that started this turn, when the hooks saw it.
		if p := st.PromptAt; !p.IsZero() && p.After(st.TurnEndAt) && !p.After(now) {
			a.workingSince = p
		}
	}
}

// progressLocked is the working row's content, nil unless working.
func (l *live) progressLocked() *conv.Progress {
	if l.state != conv.StateWorking {
		return nil
	}
	p := &conv.Progress{Since: l.act.workingSince}
	if l.view != nil {
		p.Tool = l.view.Running()
	}
	if w := l.look.warning; w != nil {
		c := *w
		p.Warning = &c
	}
	if w := l.look.watch; !w.at.IsZero() && w.busy {
		p.Command = "/" + w.name
		if p.Since.IsZero() || w.at.Before(p.Since) {
			p.Since = w.at
		}
	}
	return p
}
