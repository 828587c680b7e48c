package chat

import (
	"context"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Ready means ready. A CLI started just now (a new run, or a resumed one
// whose transcript already ends in a finished turn) cannot take input
// until its input box shows: before that its pane is blank or loading,
// and a reply finds no prompt to type into. So until a fresh run's pane
// has shown a screen lab knows, and for readyGrace after (the CLIs drop
// keys that arrive as a screen appears), its finished turn is reported
// idle, not "your turn"; and a reply sent meanwhile waits for the input
// box (waitReady) instead of being refused. A run adopted at start-up or
// attached is up already: neither applies to it, nor to a run whose CLI
// has been seen working (it took its prompt).

const (
	// readyGrace is how long the CLI's first known screen must have shown
	// before it is taken as able to take input (twice the picker grace).
	readyGrace = 2 * DefaultPickerGrace
	// readyWait bounds how long a reply waits for a starting CLI: within
	// the server's 60 s write timeout, with room for typing the reply.
	readyWait = 45 * time.Second
	// readyPoll is how often a waiting reply reads the pane.
	readyPoll = 150 * time.Millisecond
)

// starting reports whether the run's CLI was started just now and cannot
// take input yet. Called with l.mu held.
func (l *live) starting(now time.Time) bool {
	if !l.opts.fresh || l.worked {
		return false
	}
	k := l.look
	return !k.known || now.Sub(k.knownAt) < readyGrace
}

// readyState is the state to report: a finished turn of a starting CLI is
// idle. The first time the pane shows a known screen, a refresh is asked
// for once the grace has passed, so "your turn" shows without waiting for
// the next poll. Called with l.mu held.
func (l *live) readyState(s conv.State, now time.Time) conv.State {
	if !l.opts.fresh {
		return s
	}
	if s == conv.StateWorking {
		l.worked = true // it took a prompt: it is up
	}
	if k := l.look; k.known && !l.readyKicked {
		l.readyKicked = true
		time.AfterFunc(readyGrace-now.Sub(k.knownAt), l.tail.Kick)
	}
	if s == conv.StateNeedsInput && l.starting(now) {
		return conv.StateIdle
	}
	return s
}

// waitReady returns once the run's CLI can take input: at once for one
// that is up; for one starting, when its pane has shown a screen lab
// knows for readyGrace (it reads the pane itself, every readyPoll).
// EConflict after readyWait, or ctx's error.
func (l *live) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(readyWait)
	for {
		now := time.Now()
		l.mu.Lock()
		starting, known, at := l.starting(now), l.look.known, l.look.knownAt
		l.mu.Unlock()
		if !starting {
			return nil
		}
		wait := readyPoll
		if known {
			wait = readyGrace - now.Sub(at)
		} else if k := l.look; k.drv != nil && k.drv.Look(k.capture()).Kind != agent.LookUnknown {
			l.mu.Lock()
			k.sawKnown(now)
			l.mu.Unlock()
			l.tail.Kick()
			continue
		}
		if now.After(deadline) {
			return conv.Errorf(conv.EConflict, "the CLI has not shown its prompt in the %s since it started; reply again once it does", readyWait)
		}
		if err := pause(ctx, wait); err != nil {
			return err
		}
	}
}
