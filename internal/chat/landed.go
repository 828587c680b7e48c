package chat

import (
	"lab/internal/conv"
)

// A dialog lab answered has landed once the CLI took the committing key:
// its picker left the pane (the actor's settle). The CLI writes the
// answer to its transcript a moment later — tens of milliseconds, up to a
// second on a loaded machine — and until then the transcript still shows
// the dialog pending. A landed dialog is therefore no longer served as
// pending, the run counts as working, and the stream shows the dialog
// with the outcome lab intended (the intents), which the transcript's
// own record then replaces (a back-patch, so every client refetches it;
// should the two differ, the fold's desync warning says so as before).

// landedMax bounds the landed set; entries go once the transcript has
// recorded them.
const landedMax = 64

// land marks toolID landed and publishes the change at once, so a client
// refetching after its answer call no longer sees the card.
func (l *live) land(toolID string) {
	l.mu.Lock()
	if l.landed == nil {
		l.landed = map[string]bool{}
	}
	if len(l.landed) >= landedMax {
		clear(l.landed)
	}
	l.landed[toolID] = true
	l.landNew = append(l.landNew, toolID)
	l.mu.Unlock()
	l.refresh()
}

// isLanded reports whether toolID landed and the transcript has not
// recorded it yet; a recorded one is forgotten. Called with l.mu held.
func (l *live) isLanded(toolID string) bool {
	if !l.landed[toolID] {
		return false
	}
	if l.view != nil && l.view.Resolved(toolID) {
		delete(l.landed, toolID)
		return false
	}
	return true
}

// syncLanded forgets the landed dialogs the transcript has recorded, and
// returns the lowest seq of the dialogs that landed since the last call (0
// if none), whose messages now show their intended outcome. Called with
// l.mu held, after the transcript's sync.
func (l *live) syncLanded() int {
	for id := range l.landed {
		l.isLanded(id)
	}
	if len(l.landNew) == 0 || l.view == nil {
		l.landNew = nil
		return 0
	}
	want := l.landNew
	l.landNew = nil
	bp := 0
	for _, m := range l.view.Page(conv.Query{Limit: landedScan}).Messages {
		if m.Kind != conv.KindDialog || m.Dialog == nil {
			continue
		}
		for _, id := range want {
			if m.Dialog.ToolID == id && (bp == 0 || m.Seq < bp) {
				bp = m.Seq
			}
		}
	}
	return bp
}

// landedScan is how many of the latest messages are searched for a
// landed dialog: it is the stream's pending tail.
const landedScan = 64

// overlayLanded gives each landed dialog message of msgs the outcome lab
// intended, when known. Called with l.mu held.
func (l *live) overlayLanded(msgs []conv.Message) {
	if len(l.landed) == 0 || l.intents == nil {
		return
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Kind != conv.KindDialog || m.Dialog == nil || m.Dialog.Outcome != nil || !l.isLanded(m.Dialog.ToolID) {
			continue
		}
		o, ok := l.intents(m.Dialog.ToolID)
		if !ok || o == nil {
			continue
		}
		d := m.Dialog.Clone()
		d.Outcome = o.Clone()
		m.Dialog = d
		m.SetHash()
	}
}
