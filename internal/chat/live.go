package chat

import (
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Publisher receives the invalidation events of live runs. It must not
// block (the SSE broker drops slow subscribers instead).
type Publisher interface {
	Publish(conv.Event)
}

// live is the current chat of one running run: its side channel (the hook
// spool), the view of its current transcript (which changes on /clear),
// the pending dialog and the overlaid state. A tailer keeps it current and
// publishes a run.messages.changed event whenever what a client would see
// changed.
type live struct {
	runID   string
	side    agent.Side
	newFold func() agent.Fold
	pub     Publisher
	log     *slog.Logger

	intents func(toolID string) (*conv.Outcome, bool)
	// opts is what lab knew of the run when it began following it.
	opts liveOpts
	// readyKicked: a refresh is asked for when a starting CLI becomes
	// ready (ready.go).
	readyKicked bool
	worked      bool // the CLI has been seen working since it started
	// draw is the reading of the words the CLI draws (livetext.go);
	// liveShown what reads serve of them; kept the copies of words a
	// turn drew but never recorded, for the current transcript.
	draw      drawing
	liveShown atomic.Pointer[conv.LiveText]
	// watchedUntil (unix ns) is how long a client's last read keeps the
	// live text read; reading is set while the reader runs (set under mu,
	// read without it by watch, which every messages read calls).
	watchedUntil atomic.Int64
	reading      atomic.Bool
	kept         []conv.Partial
	keptAt       int           // a partial was kept after seq keptAt-1 since the last event
	done         chan struct{} // closed by close

	mu      sync.Mutex
	view    *View
	pending *conv.Dialog
	state   conv.State
	look    *looker   // what the pane shows
	changed time.Time // when the transcript last changed
	soon    bool      // a quick re-look is scheduled
	// waitFrom is the transcript size when the side channel announced the
	// CLI waits on the operator (waitMark); while the transcript has not
	// grown past it, it waits on something that is not a structured dialog.
	waitMark string
	waitFrom int64
	lastSeen struct {
		len     int
		state   conv.State
		pending string
		alert   string
		warning string
	}
	// syncedAt is when the last refresh finished (for tailer lag).
	syncedAt time.Time
	// act is the run's activity beside the stream (progress.go).
	act activity
	// turns reports where the run's turns stand (turns.go); nil when
	// nobody listens.
	turns *turns
	// steered is what the pane confirmed of a switch lab made (steering.go).
	steered steered

	// shown is what reads serve: the view as the last refresh left it,
	// published whole at its end, so a read never waits on a refresh (a
	// refresh reads files and the pane, which is slow while the machine
	// is busy starting runs).
	shown atomic.Pointer[frame]

	tail *tailer
}

// frame is the live view at the end of one refresh. It is never changed
// once published.
type frame struct {
	view     *View
	partials []conv.Partial
	state    conv.State
	pending  *conv.Dialog
	alert    *conv.Lifecycle
	progress *conv.Progress
	settings *conv.Settings
	usage    *conv.Usage
	lastAt   time.Time
	preview  string
}

// livePoll is the fallback poll interval when file notifications fail;
// restPoll the one for a run at rest (see atRest) whose folders are all
// watched.
const (
	livePoll  = time.Second
	restPoll  = 10 * time.Second
	restAfter = 5 * time.Second
)

// liveOpts is what lab knows of a run as its live view starts.
type liveOpts struct {
	// transcript is the run's transcript as recorded (a resumed session's
	// own), read until the side channel names one: a resumed Codex
	// session names it only with its first turn.
	transcript string
	// fresh says the CLI was started just now (a new or resumed run, not
	// one adopted at start-up): until its pane has shown a screen lab
	// knows, it cannot take input, so a turn that ended is not yet the
	// operator's (see ready.go).
	fresh bool
	// partials keeps the words a turn drew but never recorded (nil:
	// memory only).
	partials PartialStore
}

func newLive(runID string, side agent.Side, newFold func() agent.Fold, pane Pane, drv agent.Driver, intents func(string) (*conv.Outcome, bool), pub Publisher, log *slog.Logger, opts liveOpts) *live {
	l := &live{runID: runID, side: side, newFold: newFold, pub: pub, log: log, intents: intents, state: conv.StateIdle,
		look: newLooker(pane, drv), changed: time.Now(), opts: opts, done: make(chan struct{})}
	l.shown.Store(&frame{state: conv.StateIdle})
	l.tail = newTailer(l.refresh, livePoll, restPoll, log)
	l.tail.watch(side.Dir(), true)
	l.tail.start()
	return l
}

// close stops tailing and reading the pane, keeping a partial text that
// waited for its grace.
func (l *live) close() {
	l.mu.Lock()
	l.flushKeep(time.Now())
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	l.mu.Unlock()
	l.tail.Close()
}

// listenTurns has the run's turns reported to fn from now on; the run
// started at since.
func (l *live) listenTurns(since time.Time, fn TurnFunc) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.turns = &turns{runID: l.runID, since: since, report: fn}
	l.turns.observe(l.view, l.state)
}

// endTurns reports that the run ended.
func (l *live) endTurns() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.turns.end()
}

// refresh re-reads the spool and the transcript and publishes what changed.
// It runs on the tailer's goroutine, and synchronously before requests
// that must see the latest state (Snapshot).
func (l *live) refresh() {
	l.mu.Lock()
	ev, runChanged := l.refreshLocked()
	l.mu.Unlock()
	if ev != nil && l.pub != nil {
		l.pub.Publish(*ev)
		if runChanged {
			l.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: l.runID, State: ev.State})
		}
	}
}

func (l *live) refreshLocked() (*conv.Event, bool) {
	st, err := l.side.Read()
	if err != nil {
		l.log.Warn("read side channel", "run", l.runID, "err", err)
	}
	var ch Change
	path := st.TranscriptPath
	if path == "" {
		path = l.opts.transcript
	}
	if path != "" && (l.view == nil || l.view.Path() != path) {
		// A new session (start, or /clear): a new transcript and a new
		// transcript_id; clients refetch from scratch.
		l.view = NewView(path, l.newFold, l.intents)
		// Its folder may not exist yet (the CLI writes the transcript
		// with the first prompt, which the side channel reports first).
		l.tail.watch(filepath.Dir(path), false)
		l.loadPartials()
		ch.Changed, ch.Reset = true, true
	}
	if l.view != nil {
		c, err := l.view.Sync()
		if err != nil {
			l.log.Warn("sync transcript", "run", l.runID, "err", err)
		}
		ch.Changed = ch.Changed || c.Changed
		ch.Reset = ch.Reset || c.Reset
		ch.Backpatch = c.Backpatch
	}
	now := time.Now()
	if ch.Changed {
		l.changed = now
		// Serve the new messages at once: the pane read below can be
		// slow, and reads must not wait for it.
		l.publishFrame()
	}
	var again bool
	cand := l.pendingFrom(st)
	l.pending, again = l.look.dress(cand, now)
	l.state = l.stateFrom(st)
	if cand != nil && cand.Kind == conv.DialogPlan && l.pending == nil && l.state == conv.StateQuestion {
		l.state = l.look.planGoneState()
	}
	if l.pending == nil {
		var running *conv.ToolCall
		var mark idleMark
		if l.view != nil {
			running, mark.bytes = l.view.Running(), l.view.Bytes()
		}
		mark.promptAt = st.PromptAt
		var d *conv.Dialog
		l.state, d = l.look.overlay(l.state, mark, now.Sub(l.changed), running, st.Waiting != "", now)
		if d != nil {
			l.pending = d
		}
	}
	l.state = l.readyState(l.state, now)
	if again {
		l.lookSoon()
	}
	l.syncedAt = now
	l.noteActivity(st, ch.Changed, now)
	l.turns.observe(l.view, l.state)
	l.afterRefresh(now)
	l.tail.rest(l.atRest(now)) // after afterRefresh: it may keep drawn text
	l.publishFrame()

	n, pendingID, alert := 0, "", ""
	if l.view != nil {
		n = l.view.Len()
	}
	if l.pending != nil {
		pendingID = l.pending.ToolID
	}
	if a := l.look.alert; a != nil {
		alert = a.Text
	}
	warning := ""
	if w := l.look.warning; w != nil {
		warning = w.Text
	}
	runChanged := l.state != l.lastSeen.state || pendingID != l.lastSeen.pending || alert != l.lastSeen.alert
	backpatch := ch.Backpatch
	if k := l.keptAt; k > 0 {
		// A partial was kept after seq k-1: clients read again from there.
		l.keptAt = 0
		if backpatch == 0 || k < backpatch {
			backpatch = k
		}
		ch.Changed = true
	}
	if !ch.Changed && !runChanged && n == l.lastSeen.len && warning == l.lastSeen.warning {
		return nil, false
	}
	l.lastSeen.len, l.lastSeen.state, l.lastSeen.pending, l.lastSeen.alert = n, l.state, pendingID, alert
	l.lastSeen.warning = warning
	return &conv.Event{Type: conv.EventMessagesChanged, RunID: l.runID, State: l.state, BackpatchSeq: backpatch}, runChanged
}

// atRest reports whether nothing about the run can change but through its
// files or lab's own hand: it is not working, no dialog waits, the
// transcript has been quiet a while and the pane needs no look on time
// (a starting run's screen is known, no command or alert is watched, no
// drawn text waits to be kept at its time). The
// operator typing at the terminal wakes it through the files the CLI
// writes (the prompt hook, the transcript).
func (l *live) atRest(now time.Time) bool {
	return l.state != conv.StateWorking && l.state != conv.StateQuestion && l.pending == nil && !l.soon &&
		l.draw.keep == nil && now.Sub(l.changed) >= restAfter && !l.look.restless(now)
}

// lookSoon schedules a refresh shortly, for a dialog the pane does not
// show yet. It is called with l.mu held.
func (l *live) lookSoon() {
	if l.soon {
		return
	}
	l.soon = true
	time.AfterFunc(dressRetry, func() {
		l.mu.Lock()
		l.soon = false
		l.mu.Unlock()
		l.tail.Kick()
	})
}

// nudge asks for a look at the pane now: an interrupt was sent, and the
// transcript may never say the CLI went idle.
func (l *live) nudge() {
	l.mu.Lock()
	l.look.nudged = time.Now()
	l.mu.Unlock()
	l.tail.Kick()
}

// pendingFrom picks the pending dialog: the newest one the side channel
// announced that the transcript does not show resolved (retiring the
// resolved ones), else the transcript's own pending tail dialog.
func (l *live) pendingFrom(st agent.SideState) *conv.Dialog {
	var pick *conv.Dialog
	for _, d := range st.Pending {
		if l.view != nil && l.view.Resolved(d.ToolID) {
			if err := l.side.Retire(d.ToolID); err != nil {
				l.log.Warn("retire side channel dialog", "run", l.runID, "tool", d.ToolID, "err", err)
			}
			continue
		}
		pick = d
	}
	if pick == nil && l.view != nil {
		pick = l.view.Pending()
	}
	return pick
}

// stateFrom overlays what the side channel knows on the transcript's state.
func (l *live) stateFrom(st agent.SideState) conv.State {
	if l.pending != nil {
		return conv.StateQuestion
	}
	s := conv.StateIdle
	var size int64
	if l.view != nil {
		s = l.view.State()
		size = l.view.Bytes()
	}
	if st.Waiting != "" {
		if l.waitMark != st.Waiting {
			l.waitMark, l.waitFrom = st.Waiting, size
		}
		if size <= l.waitFrom {
			return conv.StateNeedsInput
		}
	}
	if s == conv.StateIdle && !st.PromptAt.IsZero() {
		// The prompt is submitted but not yet in the transcript.
		return conv.StateWorking
	}
	return s
}

// publishFrame makes the state a refresh arrived at what reads serve.
// Called with l.mu held.
func (l *live) publishFrame() {
	f := &frame{view: l.view, partials: l.kept, state: l.state, pending: l.pending.Clone(), progress: l.progressLocked(),
		settings: l.settingsLocked(), lastAt: l.act.lastAt, preview: l.act.preview}
	if l.view != nil {
		f.usage = l.view.Usage()
	}
	if a := l.look.alert; a != nil {
		c := *a
		f.alert = &c
	}
	l.shown.Store(f)
}

// snapshot returns a window with the live overlay as the last refresh
// left it, without waiting for one (the tailer refreshes on every change
// to the run's files, and its event brings the change to clients). It
// takes no lock a refresh holds but the view's own, which a refresh holds
// only while folding appended bytes. It does not ask for a refresh
// either: one racing the read for the view's lock made reads slower.
func (l *live) snapshot(q conv.Query) conv.Page {
	f := l.shown.Load()
	var p conv.Page
	if f.view != nil {
		p = pageOf(f.view.Page(q))
	} else {
		p = conv.Page{Messages: []conv.Message{}}
	}
	p.State = f.state
	p.PendingDialog = f.pending.Clone()
	if f.alert != nil {
		c := *f.alert
		p.Alert = &c
	}
	if f.progress != nil {
		c := *f.progress
		p.Progress = &c
	}
	if f.settings != nil {
		c := *f.settings
		p.Settings = &c
	}
	if f.state == conv.StateWorking {
		p.LiveText = liveFor(l.liveShown.Load(), p)
	}
	p.Partials = partialsIn(f.partials, q, p)
	return p
}

// overlayRun puts the live state on r as the last refresh left it.
func (l *live) overlayRun(r *conv.Run) {
	f := l.shown.Load()
	r.State, r.Pending = f.state, f.pending != nil
	if f.alert != nil {
		c := *f.alert
		r.Alert = &c
	}
	if r.TranscriptPath == "" && f.view != nil {
		r.TranscriptPath = f.view.Path()
	}
	if !f.lastAt.IsZero() {
		t := f.lastAt
		r.LastActivity = &t
	}
	r.Preview = f.preview
	r.Usage = f.usage
	// While a dialog waits, the preview is what it asks.
	if s := clipRunes(conv.DialogLine(f.pending), previewMax); s != "" {
		r.Preview = s
	}
}

// current returns the pending dialog after a fresh refresh (the answer
// guard's source of truth) without publishing under the caller's lock.
func (l *live) current() (*conv.Dialog, conv.State) {
	l.refresh()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pending.Clone(), l.state
}

// lag is how long ago the tailer last caught up.
func (l *live) lag() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.syncedAt.IsZero() {
		return 0
	}
	return time.Since(l.syncedAt)
}

// transcriptPath returns the current transcript, "" before SessionStart.
func (l *live) transcriptPath() string {
	if f := l.shown.Load(); f.view != nil {
		return f.view.Path()
	}
	return ""
}
