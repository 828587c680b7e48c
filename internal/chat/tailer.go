package chat

import (
	"log/slog"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// tailer calls sync whenever something changes in the watched folders, and
// at least every poll interval as a fallback for filesystems where change
// notification is missing or lossy. Bursts of events coalesce into one call;
// sync never runs concurrently with itself.
type tailer struct {
	sync func()
	poll time.Duration
	log  *slog.Logger

	kick chan struct{}
	w    *fsnotify.Watcher

	mu      sync.Mutex
	watched map[string]bool

	stop chan struct{}
	done chan struct{}
}

func newTailer(syncFn func(), poll time.Duration, log *slog.Logger) *tailer {
	t := &tailer{
		sync: syncFn, poll: poll, log: log,
		kick:    make(chan struct{}, 1),
		watched: map[string]bool{},
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		// Polling still works; say so once.
		log.Warn("file change notification unavailable; polling only", "err", err)
	} else {
		t.w = w
	}
	go t.loop()
	return t
}

// watch adds dir to the watched folders (a no-op when already watched or
// when it cannot be watched yet; the poll covers it).
func (t *tailer) watch(dir string) {
	if t.w == nil || dir == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watched[dir] {
		return
	}
	if err := t.w.Add(dir); err != nil {
		return
	}
	t.watched[dir] = true
}

// Kick asks for a sync soon; it never blocks.
func (t *tailer) Kick() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

func (t *tailer) loop() {
	defer close(t.done)
	var events <-chan fsnotify.Event
	var errs <-chan error
	if t.w != nil {
		events, errs = t.w.Events, t.w.Errors
	}
	tick := time.NewTicker(t.poll)
	defer tick.Stop()
	t.sync()
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
			t.log.Debug("watch error", "err", err)
		case <-t.kick:
			t.sync()
		case <-tick.C:
			t.sync()
		}
	}
}

// drainAndSync folds a burst of pending notifications into one sync.
func (t *tailer) drainAndSync(events <-chan fsnotify.Event) {
	for {
		select {
		case _, ok := <-events:
			if !ok {
				t.sync()
				return
			}
		default:
			t.sync()
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
