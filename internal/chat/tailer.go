package chat

import (
	"errors"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// tailer calls sync whenever something changes in the watched folders, and
// at least every poll interval as a fallback for filesystems where change
// notification is missing or lossy. Bursts of events coalesce into one call;
// sync never runs concurrently with itself.
//
// A run at rest (its turn over, nothing pending) changes only through a
// file the watcher reports or a kick from lab itself, so while the owner
// says so (rest) and every folder is watched, the fallback poll slows to
// restPoll: ten idle runs cost what one did.
type tailer struct {
	sync     func()
	poll     time.Duration
	restPoll time.Duration
	log      *slog.Logger

	kick chan struct{}
	w    *fsnotify.Watcher

	// resting is set by the owner after a sync; blind when a folder could
	// not be watched, which keeps the fast poll for good.
	resting atomic.Bool
	blind   atomic.Bool

	mu      sync.Mutex
	watched map[string]bool
	missing map[string]bool // folders to watch once they exist

	stop chan struct{}
	done chan struct{}
}

func newTailer(syncFn func(), poll, restPoll time.Duration, log *slog.Logger) *tailer {
	t := &tailer{
		sync: syncFn, poll: poll, restPoll: restPoll, log: log,
		kick:    make(chan struct{}, 1),
		watched: map[string]bool{},
		missing: map[string]bool{},
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		// Polling still works; say so once.
		log.Warn("file change notification unavailable; polling only", "err", err)
		t.blind.Store(true)
	} else {
		t.w = w
	}
	return t
}

// start begins watching and syncing (the first sync at once). The owner
// starts it once its own fields are set: sync may use them.
func (t *tailer) start() { go t.loop() }

// watch adds dir to the watched folders (a no-op when already watched).
// A required folder that cannot be watched leaves the tailer blind: the
// fast poll covers it for good. Any other folder that does not exist yet
// is tried again before every sync; one that exists but cannot be
// watched leaves the tailer blind too.
func (t *tailer) watch(dir string, required bool) {
	if t.w == nil || dir == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watched[dir] {
		return
	}
	t.add(dir, required)
}

// add tries to watch dir; called with t.mu held.
func (t *tailer) add(dir string, required bool) {
	err := t.w.Add(dir)
	switch {
	case err == nil:
		t.watched[dir] = true
		delete(t.missing, dir)
	case !required && errors.Is(err, fs.ErrNotExist):
		t.missing[dir] = true
	default:
		t.log.Debug("watch folder; polling it", "dir", dir, "err", err)
		t.blind.Store(true)
		delete(t.missing, dir)
	}
}

// retry tries again the folders that did not exist yet.
func (t *tailer) retry() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for dir := range t.missing {
		t.add(dir, false)
	}
}

// rest says whether the owner's run is at rest: the next poll may wait
// restPoll (when every folder is watched).
func (t *tailer) rest(on bool) { t.resting.Store(on) }

// interval is the wait before the next fallback poll.
func (t *tailer) interval() time.Duration {
	if t.resting.Load() && !t.blind.Load() && t.restPoll > t.poll {
		return t.restPoll
	}
	return t.poll
}

// Kick asks for a sync soon; it never blocks.
func (t *tailer) Kick() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// syncNow watches the folders that appeared since, then syncs.
func (t *tailer) syncNow() {
	t.retry()
	t.sync()
}

func (t *tailer) loop() {
	defer close(t.done)
	var events <-chan fsnotify.Event
	var errs <-chan error
	if t.w != nil {
		events, errs = t.w.Events, t.w.Errors
	}
	t.syncNow()
	tick := time.NewTimer(t.interval())
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case _, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			t.drainAndSync(events)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// Events may have been lost (a queue overflow): look now
			// rather than at the next poll, which may be a rest one.
			t.log.Debug("watch error", "err", err)
			t.syncNow()
		case <-t.kick:
			t.syncNow()
		case <-tick.C:
			t.syncNow()
		}
		// Whatever woke the loop, the next poll is an interval after this
		// sync, at the pace the run now needs (since Go 1.23 a Reset timer
		// never delivers a stale tick).
		tick.Reset(t.interval())
	}
}

// drainAndSync folds a burst of pending notifications into one sync.
func (t *tailer) drainAndSync(events <-chan fsnotify.Event) {
	for {
		select {
		case _, ok := <-events:
			if !ok {
				t.syncNow()
				return
			}
		default:
			t.syncNow()
			return
		}
	}
}

// Close stops the tailer and waits for its loop to end.
func (t *tailer) Close() {
	select {
	case <-t.stop:
		return
	default:
	}
	close(t.stop)
	if t.w != nil {
		t.w.Close()
	}
	<-t.done
}
