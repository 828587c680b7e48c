package chat

import (
	"context"
	"strings"
	"time"
	"unicode"

	"lab/internal/conv"
)

// Live text: while a run works, the agent's words appear on the CLI's
// screen long before the transcript has them (a text block is written
// when it is complete). The live view reads them off the pane
// (Driver.Drawing) and serves them beside the stream (Page.LiveText),
// never inside it: the seq'd stream stays what the transcript says. The
// transcript's message replaces them when it lands.
//
// Reading costs a pane capture every liveTextEvery, so it happens only
// while the run works and someone watches: a client reading the run's
// messages holds a lease of liveWatchTTL (Service.Watch); the reader
// stops when the lease runs out or the turn ends.
//
// Which words are new: the last block on the pane may be words the
// transcript already holds (the CLI leaves a block on screen after writing
// it, and folds a tool's summary into it). A block is told by its first
// liveHeadLen letters and digits; it is recorded when an agent's text of
// the current turn contains them, and then not served. Words shown but
// never recorded when the turn ends (Codex keeps no partial text of an
// interrupted turn) are kept, after keepGrace, as lab's own copy
// (conv.Partial), so the operator does not lose what was on screen.

const (
	liveTextEvery = 250 * time.Millisecond
	liveWatchTTL  = 15 * time.Second
	liveHeadLen   = 24
	// recordedBack is how many of the newest messages are searched for a
	// block's words.
	recordedBack = 60
	// keepGrace is how long after its turn ends an unrecorded text waits
	// for the transcript before lab keeps its own copy (the CLI may write
	// it a moment after its screen shows the turn over).
	keepGrace = 3 * time.Second
)

// PartialStore keeps lab's copies of words a CLI never recorded, by
// transcript (the store implements it).
type PartialStore interface {
	KeepPartial(ctx context.Context, transcript string, p conv.Partial) error
	Partials(ctx context.Context, transcript string) ([]conv.Partial, error)
}

// drawing is a live view's reading of the words drawn; guarded by l.mu.
type drawing struct {
	head   string    // the block shown: its first letters and digits
	landed bool      // the block's words are in the transcript
	base   int       // the stream's length when the block appeared
	since  time.Time // when it appeared
	text   string    // the words served
	doubt  string    // a reading that did not grow the text, waiting for the next to agree
	last   *conv.LiveText
	// keep is the text of a turn that ended unrecorded, kept at keepAt
	// unless the transcript records it first.
	keep   *conv.LiveText
	keepAt time.Time
}

// squashWords keeps only letters and digits, lowercased: the pane's
// rendering (markdown drawn, lines wrapped, bullets) compares equal to
// the transcript's source.
func squashWords(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// headOf is the first liveHeadLen runes of squashed words.
func headOf(sq string) string {
	if r := []rune(sq); len(r) > liveHeadLen {
		return string(r[:liveHeadLen])
	}
	return sq
}

// watch notes that a client reads the run now: its live text is read for
// liveWatchTTL from now while it works. It runs on every read of the
// run's messages, so it takes no lock a refresh holds: a run that works
// (as its last frame says) without a reader gets one started aside.
func (l *live) watch(now time.Time) {
	l.watchedUntil.Store(now.Add(liveWatchTTL).UnixNano())
	if l.reading.Load() {
		return
	}
	if f := l.shown.Load(); f == nil || f.state != conv.StateWorking {
		return // the refresh that finds it working starts the reader
	}
	go func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.startReading(time.Now())
	}()
}

// watched reports whether a client read the run within liveWatchTTL.
func (l *live) watched(now time.Time) bool { return now.UnixNano() < l.watchedUntil.Load() }

// startReading starts the reader if the run works and is watched. Called
// with l.mu held.
func (l *live) startReading(now time.Time) {
	if l.reading.Load() || l.state != conv.StateWorking || !l.watched(now) || l.look.drv == nil {
		return
	}
	l.reading.Store(true)
	l.log.Debug("live text: reading", "run", l.runID)
	go l.readDrawing()
}

// readDrawing reads the pane every liveTextEvery while the run works and
// is watched, publishing a run.live.changed when the words served change.
func (l *live) readDrawing() {
	t := time.NewTicker(liveTextEvery)
	defer t.Stop()
	for {
		l.mu.Lock()
		if l.state != conv.StateWorking || !l.watched(time.Now()) {
			l.reading.Store(false)
			l.setLive(nil)
			l.log.Debug("live text: stopped reading", "run", l.runID, "state", l.state)
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		text := l.look.drv.Drawing(l.look.capture())
		l.mu.Lock()
		changed := l.noteDrawing(text, time.Now())
		l.mu.Unlock()
		if changed && l.pub != nil {
			l.log.Debug("live text", "run", l.runID, "bytes", len(text))
			l.pub.Publish(conv.Event{Type: conv.EventLiveChanged, RunID: l.runID})
		}
		select {
		case <-t.C:
		case <-l.done:
			return
		}
	}
}

// noteDrawing takes one reading of the words drawn and reports whether
// what is served changed. Called with l.mu held.
func (l *live) noteDrawing(text string, now time.Time) bool {
	d := &l.draw
	if l.view == nil || l.state != conv.StateWorking {
		return l.setLive(nil)
	}
	if l.view.Running() != nil {
		text = "" // a tool runs: the block shown is its call
	}
	sq := squashWords(text)
	if sq == "" {
		return l.setLive(nil)
	}
	head := headOf(sq)
	if l.recorded(head) {
		d.head, d.landed, d.last = head, true, nil
		return l.setLive(nil)
	}
	same := !d.landed && d.head != "" && (strings.HasPrefix(head, d.head) || strings.HasPrefix(d.head, head))
	switch {
	case !same:
		*d = drawing{keep: d.keep, keepAt: d.keepAt, head: head, base: l.view.Len(), since: now}
	case d.text != "" && !strings.HasPrefix(sq, squashWords(d.text)) && text != d.doubt:
		// The words shrank or changed: a screen caught mid-redraw says
		// so once; believe it when the next reading agrees.
		d.doubt = text
		return false
	}
	if len(head) > len(d.head) {
		d.head = head
	}
	d.doubt, d.text = "", text
	lt := &conv.LiveText{Text: text, Since: d.since, AfterSeq: d.base}
	d.last = lt
	return l.setLive(lt)
}

// recorded reports whether an agent's text of the current turn (after its
// last prompt) holds words starting with head. Called with l.mu held.
func (l *live) recorded(head string) bool {
	msgs := l.view.Page(conv.Query{Limit: recordedBack}).Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Kind != conv.KindText {
			continue
		}
		if m.Role == conv.RoleUser {
			return false
		}
		if strings.Contains(squashWords(m.Text), head) {
			return true
		}
	}
	return false
}

// setLive makes lt what reads serve and reports whether that changed.
// Called with l.mu held.
func (l *live) setLive(lt *conv.LiveText) bool {
	cur := l.liveShown.Load()
	if cur == nil && lt == nil || cur != nil && lt != nil && *cur == *lt {
		return false
	}
	l.liveShown.Store(lt)
	return true
}

// afterRefresh keeps the live text in step with a refresh: words the
// transcript now holds stop being served, the reader starts when a
// watched run starts working, and when a turn ends its words stop being
// live (those never recorded are kept after keepGrace). Called with l.mu
// held, before the refresh publishes its frame.
func (l *live) afterRefresh(now time.Time) {
	d := &l.draw
	if k := d.keep; k != nil && l.view != nil {
		switch {
		case l.recorded(headOf(squashWords(k.Text))):
			d.keep = nil
		case !now.Before(d.keepAt):
			l.keepPartial(*k, now)
			d.keep = nil
		}
	}
	if l.state != conv.StateWorking {
		if d.last != nil && l.view != nil && !l.recorded(headOf(squashWords(d.last.Text))) {
			d.keep, d.keepAt = d.last, now.Add(keepGrace)
		}
		*d = drawing{keep: d.keep, keepAt: d.keepAt}
		l.setLive(nil)
		return
	}
	if cur := l.liveShown.Load(); cur != nil && l.recorded(headOf(squashWords(cur.Text))) {
		d.landed, d.last = true, nil
		l.setLive(nil)
	}
	l.startReading(now)
}

// keepPartial stores lab's copy of words never recorded and serves it.
// Called with l.mu held.
func (l *live) keepPartial(lt conv.LiveText, now time.Time) {
	p := conv.Partial{AfterSeq: lt.AfterSeq, Text: lt.Text, Time: now}
	if l.opts.partials != nil && l.view != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := l.opts.partials.KeepPartial(ctx, l.view.Path(), p); err != nil {
			l.log.Warn("keep the words a turn drew but never recorded", "run", l.runID, "err", err)
		}
	}
	l.kept = append(l.kept, p)
	if l.keptAt == 0 || p.AfterSeq+1 < l.keptAt {
		l.keptAt = p.AfterSeq + 1
	}
	l.log.Info("kept words the CLI drew but did not record", "run", l.runID, "after_seq", p.AfterSeq, "bytes", len(p.Text))
}

// loadPartials reads the copies kept for the view's transcript. Called
// with l.mu held, when the view changes.
func (l *live) loadPartials() {
	l.kept = nil
	if l.opts.partials == nil || l.view == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ps, err := l.opts.partials.Partials(ctx, l.view.Path())
	if err != nil {
		l.log.Warn("read kept partial texts", "run", l.runID, "err", err)
	}
	l.kept = ps
}

// flushKeep keeps a pending copy at once (the run is ending). Called with
// l.mu held.
func (l *live) flushKeep(now time.Time) {
	if k := l.draw.keep; k != nil && l.view != nil && !l.recorded(headOf(squashWords(k.Text))) {
		l.keepPartial(*k, now)
	}
	l.draw.keep = nil
}

// partialsIn returns the partials that belong in page p read with q:
// those after a seq from just before its first message on (up to its
// end when it was read backwards).
func partialsIn(all []conv.Partial, q conv.Query, p conv.Page) []conv.Partial {
	if len(all) == 0 {
		return nil
	}
	lo, hi := q.After, -1
	if len(p.Messages) > 0 {
		lo = p.FirstSeq - 1
		if q.Before > 0 {
			hi = p.LastSeq
		}
	}
	var out []conv.Partial
	for _, x := range all {
		if x.AfterSeq >= lo && (hi < 0 || x.AfterSeq <= hi) {
			out = append(out, x)
		}
	}
	return out
}

// liveFor returns the live text to serve with page p: none once p holds
// an agent's text after it (the transcript's message has landed; the
// reader drops it on its next look).
func liveFor(lt *conv.LiveText, p conv.Page) *conv.LiveText {
	if lt == nil {
		return nil
	}
	for _, m := range p.Messages {
		if m.Seq > lt.AfterSeq && m.Kind == conv.KindText && m.Role == conv.RoleAssistant {
			return nil
		}
	}
	c := *lt
	return &c
}
