package chat

import (
	"context"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// What the live view reads off a run's pane, besides the transcript and
// the side channel:
//
//   - a pending dialog's dressing: a permission prompt's options and a
//     plan's approval rows exist only on the screen. They are read once
//     per dialog; a permission prompt is served only while its screen
//     shows, so a card never offers options the CLI is not showing.
//     Every dialog's picker is looked for until it shows, and when it
//     first showed is kept (conv.Dialog.Shown): lab's answer needs no
//     picker grace on a picker that has been up for a while.
//   - the CLI's real state when the transcript cannot tell: a turn the
//     transcript still shows working while the CLI sits idle at its
//     prompt after an interrupt the transcript did not record, a
//     permission prompt for a call no hook announced, and a screen lab
//     does not understand (served as an alert, never as a silent idle).
//     The idle prompt alone never ends a turn: a CLI that was just given
//     a prompt, or is starved of CPU, shows its box without its busy hint
//     for seconds while it works (ten runs starting at once on two cores
//     went needs_input 1.2 s into their first turn). Only where the CLI
//     records no end of turn at all does it count: right after lab's own
//     interrupt, and after a turn stuck in API retries was cancelled at
//     the terminal (Escape puts the prompt back; no transcript line, no
//     Stop hook).
//   - a turn stuck while the CLI still works: an API error it retries
//     with a countdown only its screen shows (the warning of the page's
//     progress), until the transcript moves again.
//
// Pane reads are rationed: while a dialog waits to be dressed, often;
// otherwise only when the transcript has been quiet for a while during a
// turn, at start-up until the CLI shows a screen lab knows, and right
// after an interrupt.

const (
	// lookTimeout bounds one pane capture.
	lookTimeout = 2 * time.Second
	// lookEvery is the most often the state overlay reads the pane.
	lookEvery = time.Second
	// lookQuiet is how long a turn's transcript must have been still
	// before the pane is asked whether the CLI is really working.
	lookQuiet = 2 * time.Second
	// dressRetry is how soon a dialog the pane does not show yet is
	// looked for again: the hook fires just before the prompt is drawn.
	dressRetry = 100 * time.Millisecond
	// dressPatience is how long a permission request may go unseen on
	// the pane before it is no longer retried quickly.
	dressPatience = 5 * time.Second
	// unknownAfter is how long a screen lab does not understand must stay
	// before it is reported.
	unknownAfter = 3 * time.Second
	// planPatience is how long a plan pending in the transcript may go
	// without its picker on the pane before it is no longer served: the
	// picker follows the end of the turn that wrote the plan.
	planPatience = 3 * time.Second
)

// maxRemembered bounds the per-dialog caches of dressings; dialogs are rare.
const maxRemembered = 256

// looker is the per-run pane state of a live view. It is guarded by the
// live view's lock.
type looker struct {
	pane Pane
	drv  agent.Driver

	dressed map[string]*conv.Dialog // by tool id: the dressing first seen
	asked   map[string]time.Time    // by tool id: when a permission request was first seen undressed

	lastLook    time.Time
	known       bool      // the pane has shown a screen lab understands
	knownAt     time.Time // when it first did
	unknownFrom time.Time // when the current unknown screen was first seen
	nudged      time.Time // an interrupt was sent: look now
	idleMark    idleMark  // the transcript and prompt state when the pane showed the CLI idle
	idle        bool
	alert       *conv.Lifecycle
	warning     *conv.Lifecycle // the busy screen says the turn is stuck
	// retried is the prompt time of the turn the pane last showed stuck
	// in API retries: an idle box after that is the retries cancelled.
	retried  time.Time
	revealed *conv.Dialog // a permission prompt the pane showed for a call no hook announced
	plan     planLook     // the last look for a pending plan's picker
	watch    commandWatch // a command lab sent, watched on the pane until the CLI is idle again
}

// commandWatch is a slash command lab sent: the transcript may say nothing
// while it runs (a compaction writes its records when done), so the pane
// says whether the CLI still works on it.
type commandWatch struct {
	name string
	at   time.Time // when it was sent; zero when nothing is watched
	busy bool      // the last look saw the CLI working
}

// restless reports whether the pane may still need a look on time, with
// no file changing: the screen is not known yet, an alert waits to clear,
// a command or an interrupt is being watched, a revealed prompt shows. A
// nil looker (no pane) never does.
func (k *looker) restless(now time.Time) bool {
	if k == nil || k.drv == nil {
		return false
	}
	return !k.known || k.alert != nil || k.revealed != nil || !k.watch.at.IsZero() || now.Sub(k.nudged) < 5*time.Second
}

// watchFor bounds a command watch.
const watchFor = 15 * time.Minute

// planLook is the last look for a pending plan's picker: what the pane
// showed and what was served.
type planLook struct {
	id     string
	at     time.Time
	kind   agent.LookKind
	served *conv.Dialog
	again  bool
}

// idleMark identifies a moment of the conversation: while it holds, an
// idle CLI seen on the pane is still idle.
type idleMark struct {
	bytes    int64
	promptAt time.Time
}

func newLooker(pane Pane, drv agent.Driver) *looker {
	return &looker{pane: pane, drv: drv, dressed: map[string]*conv.Dialog{}, asked: map[string]time.Time{}}
}

// capture reads the pane, "" when it cannot.
func (k *looker) capture() string {
	if k == nil || k.pane == nil || k.drv == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookTimeout)
	defer cancel()
	c, err := k.pane.Capture(ctx)
	if err != nil {
		return ""
	}
	return c
}

// dress returns the pending dialog d as the pane shows it, and whether
// to look again soon. A permission prompt not on screen is not pending
// (nil); a plan is served with the rows the driver knows until its picker
// shows, and is not pending once the pane shows no picker for planPatience
// (the CLI records no answer to some plan pickers: a plan kept at the
// terminal leaves the transcript showing it pending).
func (k *looker) dress(d *conv.Dialog, now time.Time) (*conv.Dialog, bool) {
	if d == nil || k == nil || k.drv == nil {
		return d, false
	}
	switch d.Kind {
	case conv.DialogPermission:
		return k.dressPermission(d, now)
	case conv.DialogPlan:
		return k.dressPlan(d, now)
	case conv.DialogQuestion:
		return k.dressQuestion(d, now)
	}
	return d, false
}

// shownNow is the time to record as a picker's Shown once a capture
// showed it: taken after the capture, so it is never earlier than the
// picker's appearance (the picker grace counts from it).
func shownNow() time.Time { return time.Now() }

// dressQuestion serves a question dialog as it is, with when its picker
// first showed once the pane showed it; until then it looks again soon.
func (k *looker) dressQuestion(d *conv.Dialog, now time.Time) (*conv.Dialog, bool) {
	if seen, ok := k.dressed[d.ToolID]; ok {
		c := d.Clone()
		c.Shown = seen.Shown
		return c, false
	}
	c := d.Clone()
	if k.drv.Dress(c, k.capture()) {
		c.Shown = shownNow()
		k.remember(c)
		return c.Clone(), false
	}
	return d, now.Sub(k.firstAsked(d.ToolID, now)) < dressPatience
}

func (k *looker) dressPermission(d *conv.Dialog, now time.Time) (*conv.Dialog, bool) {
	if seen, ok := k.dressed[d.ToolID]; ok {
		// Served only while its prompt is on screen; the options stay
		// as first read (an answer in progress changes the rows).
		if k.drv.Look(k.capture()).Kind != agent.LookPermission {
			return nil, false
		}
		return seen.Clone(), false
	}
	c := d.Clone()
	if k.drv.Dress(c, k.capture()) {
		c.Shown = shownNow()
		k.remember(c)
		return c.Clone(), false
	}
	return nil, now.Sub(k.firstAsked(d.ToolID, now)) < dressPatience
}

func (k *looker) dressPlan(d *conv.Dialog, now time.Time) (*conv.Dialog, bool) {
	if p := k.plan; p.id == d.ToolID && now.Sub(p.at) < lookEvery {
		return p.served.Clone(), p.again // looked a moment ago
	}
	first := k.firstAsked(d.ToolID, now)
	capture := k.capture()
	kind := k.drv.Look(capture).Kind
	seen, dressed := k.dressed[d.ToolID]
	c := d.Clone()
	shown := k.drv.Dress(c, capture)
	var out *conv.Dialog
	switch {
	case shown:
		if !dressed {
			c.Shown = shownNow()
			k.remember(c)
			seen = c
		}
		out = seen
	case kind != agent.LookPicker && now.Sub(first) >= planPatience:
		out = nil // no picker: answered (or left) at the terminal
	case dressed:
		out = seen
	default:
		out = c // its picker has not shown yet
	}
	// Until its picker shows, look again soon while the verdict is open.
	again := !shown && out != nil && now.Sub(first) < planPatience+lookEvery
	k.plan = planLook{id: d.ToolID, at: now, kind: kind, served: out, again: again}
	return out.Clone(), again
}

// firstAsked is when the dialog toolID was first looked for on the pane
// (now, the first time).
func (k *looker) firstAsked(toolID string, now time.Time) time.Time {
	first, ok := k.asked[toolID]
	if !ok {
		first = now
		k.asked[toolID] = now
	}
	return first
}

// remember keeps a dialog's dressing, as first read.
func (k *looker) remember(d *conv.Dialog) {
	if len(k.dressed) > maxRemembered {
		clear(k.dressed)
		clear(k.asked)
	}
	k.dressed[d.ToolID] = d
}

// sawKnown records that the pane shows a screen lab understands.
func (k *looker) sawKnown(now time.Time) {
	k.known, k.unknownFrom, k.alert = true, time.Time{}, nil
	if k.knownAt.IsZero() {
		k.knownAt = now
	}
}

// planGoneState is the state of a conversation whose transcript shows a
// plan pending that the pane no longer shows: the CLI's own, as the last
// look at the pane saw it.
func (k *looker) planGoneState() conv.State {
	if k.plan.kind == agent.LookBusy {
		return conv.StateWorking
	}
	return conv.StateNeedsInput
}

// overlay corrects the transcript's state with what the pane shows, when
// it is time to look: working with an idle CLI is needs_input; a prompt
// no hook announced becomes the pending dialog; a screen lab does not
// understand becomes the alert. It returns the state, the dialog the pane
// revealed (or nil) and whether to look again soon.
// waiting says the side channel announced the CLI waits on the operator
// (an attached CLI's registry says so for a permission prompt, which no
// hook announced).
func (k *looker) overlay(state conv.State, mark idleMark, quietFor time.Duration, running *conv.ToolCall, waiting bool, now time.Time) (conv.State, *conv.Dialog) {
	if k == nil || k.drv == nil {
		return state, nil
	}
	if r := k.revealed; r != nil {
		// Served while the call is still running and its prompt shows.
		if running != nil && running.ID == r.ToolID {
			if d, _ := k.dress(r, now); d != nil {
				return conv.StateQuestion, d
			}
		}
		k.revealed = nil
	}
	if state != conv.StateWorking || quietFor < lookQuiet {
		k.warning = nil // the turn moved, or is no longer running
	}
	if k.idle && mark == k.idleMark && state == conv.StateWorking {
		return conv.StateNeedsInput, nil // seen idle since the last change
	}
	k.idle = false
	nudged := now.Sub(k.nudged) < 5*time.Second
	due := now.Sub(k.lastLook) >= lookEvery
	w := &k.watch
	if !w.at.IsZero() && (now.Sub(w.at) > watchFor || state == conv.StateQuestion) {
		*w = commandWatch{}
	}
	watching := !w.at.IsZero() && state != conv.StateWorking
	// An alert stays up until a look sees a screen lab understands, in
	// whatever state the conversation went on to (the operator answered
	// it at the terminal, and a quick turn ran since).
	want := (!k.known && (state == conv.StateIdle || state == conv.StateNeedsInput)) || (state == conv.StateWorking && (quietFor >= lookQuiet || nudged)) ||
		(waiting && running != nil) || watching || k.alert != nil
	if !due || !want {
		if watching && w.busy {
			return conv.StateWorking, nil // still working on the command, as last seen
		}
		return state, nil
	}
	k.lastLook = now
	look := k.drv.Look(k.capture())
	if watching {
		w.busy = look.Kind == agent.LookBusy
		switch {
		case w.busy:
			k.sawKnown(now)
			return conv.StateWorking, nil
		case look.Kind == agent.LookPrompt && now.Sub(w.at) >= lookQuiet:
			*w = commandWatch{} // done (or it never made the CLI work)
		}
	}
	if look.Kind != agent.LookUnknown {
		k.sawKnown(now)
	}
	k.warning = nil
	if look.Kind == agent.LookBusy && state == conv.StateWorking {
		k.warning = look.Warning
		if look.Warning != nil {
			k.retried = mark.promptAt
		}
	}
	switch look.Kind {
	case agent.LookPrompt:
		cancelled := !k.retried.IsZero() && k.retried.Equal(mark.promptAt)
		if state == conv.StateWorking && (nudged || cancelled) {
			k.idle, k.idleMark = true, mark
			return conv.StateNeedsInput, nil
		}
	case agent.LookPermission:
		if running != nil {
			if d, _ := k.dress(k.drv.Unannounced(running), now); d != nil {
				k.revealed = d
				return conv.StateQuestion, d
			}
		}
	case agent.LookUnknown:
		if k.unknownFrom.IsZero() {
			k.unknownFrom = now
		}
		if now.Sub(k.unknownFrom) >= unknownAfter && look.Text != "" {
			k.alert = &conv.Lifecycle{Level: conv.LevelError, Text: "The CLI shows a screen lab does not understand; answer it at the terminal:\n\n" + look.Text}
		}
	}
	return state, nil
}
