package runs

import (
	"context"
	"errors"
	"syscall"
	"time"

	"lab/internal/agent"
	"lab/internal/store"
)

const (
	// startWatch is how long a new run's start-up screens are watched.
	startWatch = 60 * time.Second
	// startPoll is the pause between looks at a starting run's pane.
	startPoll = 100 * time.Millisecond
	// startGrace is how long a start-up screen must have shown before a
	// key is sent to it (the CLI drops keys that arrive as a screen
	// appears; see chat.DefaultPickerGrace).
	startGrace = 300 * time.Millisecond
	// stopWait bounds how long Stop waits for the CLI to exit.
	stopWait = 5 * time.Second
)

// watchStart follows a new run until its CLI shows a screen past start-up.
// Lab marks the run's folder trusted before starting it, but a CLI exiting
// at that moment rewrites its config and can drop the entry; the new run
// then asks whether to trust the folder. The operator chose the folder, so
// when that question shows for the run's own folder, watchStart answers it
// (the driver checks the cursor row before each key). Any other screen
// ends the watch; a screen lab does not understand is the chat layer's to
// report.
func (s *Service) watchStart(rec store.RunRecord, drv agent.Driver) {
	ctx, cancel := context.WithTimeout(context.Background(), startWatch)
	defer cancel()
	target := paneTarget(rec.TmuxSession)
	var shown string
	var since time.Time
	for ctx.Err() == nil {
		capture, err := s.tmux.Capture(ctx, target)
		if err != nil {
			return // the session is gone
		}
		key, gate := drv.Gate(capture, rec.Cwd)
		if !gate {
			if k := drv.Look(capture).Kind; k != agent.LookUnknown {
				return // past start-up
			}
			pause(ctx, startPoll)
			continue
		}
		if capture != shown {
			shown, since = capture, time.Now()
		}
		if time.Since(since) < startGrace {
			pause(ctx, startPoll)
			continue
		}
		if err := s.tmux.SendKey(ctx, target, key); err != nil {
			return
		}
		s.log.Warn("run asked whether to trust its folder (its trust entry was lost); answering for the operator", "run", rec.ID, "cwd", rec.Cwd, "key", key)
		shown = ""
		pause(ctx, startPoll)
	}
}

// waitExit waits until process pid is gone, at most d.
func waitExit(ctx context.Context, pid int, d time.Duration) {
	if pid <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for ctx.Err() == nil {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		pause(ctx, 20*time.Millisecond)
	}
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
