package chat

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"lab/internal/clitest"
)

// TestTailerRests: a run at rest is not polled at the fast pace, yet a
// file written into a watched folder still syncs at once; a folder that
// cannot be watched keeps the fast poll.
func TestTailerRests(t *testing.T) {
	const fast = 10 * time.Millisecond
	dir := t.TempDir()
	var syncs atomic.Int64
	tl := newTailer(func() { syncs.Add(1) }, fast, time.Hour, slog.New(slog.DiscardHandler))
	tl.watch(dir, true)
	tl.rest(true)
	tl.start()
	defer tl.Close()
	clitest.Poll(t, 5*time.Second, "the first sync", func() bool { return syncs.Load() >= 1 })

	// Twenty fast intervals at rest: no poll (the first wait was already
	// the rest one).
	base := syncs.Load()
	time.Sleep(20 * fast)
	if n := syncs.Load() - base; n != 0 {
		t.Fatalf("%d syncs at rest with nothing written; want none", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "transcript.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clitest.Poll(t, 5*time.Second, "a sync for the file written", func() bool { return syncs.Load() > base })

	// Awake again: the fast poll resumes after the next sync.
	tl.rest(false)
	tl.Kick()
	base = syncs.Load()
	clitest.Poll(t, 5*time.Second, "fast polls", func() bool { return syncs.Load() >= base+5 })

	// A folder that does not exist yet (a transcript's before the first
	// prompt) is watched once it does: a file written there syncs at rest.
	later := filepath.Join(dir, "later")
	tl.watch(later, false)
	tl.rest(true)
	kicked := syncs.Load()
	tl.Kick()
	clitest.Poll(t, 5*time.Second, "a sync after the kick", func() bool { return syncs.Load() > kicked })
	if err := os.Mkdir(later, 0o700); err != nil {
		t.Fatal(err)
	}
	// The folder's creation wakes the tailer (it is inside a watched one),
	// which then watches it.
	clitest.Poll(t, 5*time.Second, "the new folder watched", func() bool {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		return tl.watched[later]
	})
	base = syncs.Load()
	if err := os.WriteFile(filepath.Join(later, "t.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clitest.Poll(t, 5*time.Second, "a sync for the file in the new folder", func() bool { return syncs.Load() > base })

	// A required folder the watcher cannot take: resting does not slow
	// the poll.
	tl.watch(filepath.Join(dir, "missing"), true)
	tl.rest(true)
	tl.Kick() // (lab watches from inside a sync, which sets the next wait)
	base = syncs.Load()
	clitest.Poll(t, 5*time.Second, "fast polls for a blind tailer", func() bool { return syncs.Load() >= base+5 })
}
