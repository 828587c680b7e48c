package chat

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// TestPacing measures how reliably the recipes land at several key delays:
// the whole shape matrix, many rounds per delay, against the real CLI. It
// is long (minutes to tens of minutes), so it only runs when asked:
//
//	LAB_PACING_ROUNDS=10 [LAB_PACING_DELAYS=0,25ms,50ms,100ms,250ms] \
//	[LAB_PACING_GRACE=300ms (0: off)] [LAB_PACING_READ=1s] \
//	[LAB_PACING_PARALLEL=2] [LAB_PACING_OUT=/tmp/pacing.md] \
//	go test ./internal/chat -run TestPacing -v -timeout 3h
//
// A delay of 0 sends the keys between two checkpoints in one call (lab's
// default since issue 23); a positive one sends them one per call, that
// far apart. LAB_PACING_READ is how long the picker has been on the pane
// when the answer starts (an operator reading it; default 0: at once).
//
// Each shape gets one CLI per delay, answered round after round (the next
// round's prompt is typed with Reply; plans are put back into plan mode
// with shift+tab; a fresh CLI after any failure). A round is "ok" when
// Answer returned nil and the transcript recorded exactly the intended
// answer, "conflict" when Answer refused with a conflict (a checkpoint
// stopped the recipe, or the CLI dropped the committing key: the safe
// failures), "wrong" when Answer returned nil but the transcript recorded
// something else or nothing (the unsafe one), "error" otherwise. The figures are in docs/benchmarks.md ("Answer pacing").
func TestPacing(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("LAB_PACING_ROUNDS"))
	if rounds <= 0 {
		t.Skip("pacing measurement; set LAB_PACING_ROUNDS to run it")
	}
	delays := []time.Duration{25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond}
	if s := os.Getenv("LAB_PACING_DELAYS"); s != "" {
		delays = nil
		for _, f := range strings.Split(s, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("LAB_PACING_DELAYS: %v", err)
			}
			delays = append(delays, d)
		}
	}
	parallel := 2
	if p, _ := strconv.Atoi(os.Getenv("LAB_PACING_PARALLEL")); p > 0 {
		parallel = p
	}
	var read time.Duration
	if s := os.Getenv("LAB_PACING_READ"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("LAB_PACING_READ: %v", err)
		}
		read = d
	}

	type job struct {
		delay time.Duration
		shape shape
	}
	var jobs []job
	for _, d := range delays {
		for _, s := range shapes {
			jobs = append(jobs, job{d, s})
		}
	}
	grace := DefaultPickerGrace
	if g := os.Getenv("LAB_PACING_GRACE"); g != "" {
		d, err := time.ParseDuration(g)
		if err != nil {
			t.Fatalf("LAB_PACING_GRACE: %v", err)
		}
		grace = d
		if d == 0 {
			grace = -1 // off
		}
	}
	tallies := map[time.Duration]*tally{}
	for _, d := range delays {
		tallies[d] = &tally{}
	}
	sem := make(chan struct{}, parallel)
	t.Run("jobs", func(t *testing.T) {
		for _, j := range jobs {
			t.Run(fmt.Sprintf("%v/%s", j.delay, j.shape.name), func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				paceShape(t, j.shape, j.delay, grace, read, rounds, tallies[j.delay])
			})
		}
	})

	var b strings.Builder
	fmt.Fprintf(&b, "| key delay | answers | ok | conflict (stopped safely) | wrong | error | median time to commit | p90 time to commit | median answer call | p90 answer call |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range delays {
		tl := tallies[d]
		name := d.String()
		if d == 0 {
			name = "0 (bursts)"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %v | %v | %v | %v |\n", name, tl.n(), tl.ok, tl.conflict, tl.wrong, tl.err,
			pct(tl.took, 50).Round(10*time.Millisecond), pct(tl.took, 90).Round(10*time.Millisecond),
			pct(tl.call, 50).Round(10*time.Millisecond), pct(tl.call, 90).Round(10*time.Millisecond))
	}
	for _, d := range delays {
		for _, n := range tallies[d].notes {
			fmt.Fprintf(&b, "\n- %v: %s", d, n)
		}
	}
	t.Logf("pacing (%d rounds per shape, %d shapes, picker grace %v, picker read for %v):\n%s", rounds, len(shapes), grace, read, b.String())
	if out := os.Getenv("LAB_PACING_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
}

type tally struct {
	mu                       sync.Mutex
	ok, conflict, wrong, err int
	took                     []time.Duration // first checkpoint → committing key
	call                     []time.Duration // the whole Answer call
	notes                    []string
}

func (t *tally) n() int { return t.ok + t.conflict + t.wrong + t.err }

func (t *tally) note(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.notes = append(t.notes, fmt.Sprintf(format, args...))
}

func (t *tally) count(kind string, took, call time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch kind {
	case "ok":
		t.ok++
		t.took = append(t.took, took)
		t.call = append(t.call, call)
	case "conflict":
		t.conflict++
	case "wrong":
		t.wrong++
	default:
		t.err++
	}
}

// pct is the p-th percentile of ds (0 for none).
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	return pollEvery(timeout, 50*time.Millisecond, cond)
}

// stop ends the run's CLI (its tmux server goes at test cleanup).
func (r *cliRun) stop() {
	r.live.close()
	r.rig.Tmux.KillSession(context.Background(), r.target)
}

// paceShape answers shape s rounds times with the given key delay, in one
// CLI as long as rounds succeed; after any failure the next round starts a
// fresh CLI, so one bad round cannot poison the next (a declined picker
// would also confuse the scripted model's prompt detection).
func paceShape(t *testing.T, s shape, delay, grace, read time.Duration, rounds int, tl *tally) {
	opts := e2eOpts(delay)
	opts.PickerGrace = grace
	opts.SettleTimeout = 30 * time.Second
	var r *cliRun
	seen := map[string]bool{}
	for round := 0; round < rounds; round++ {
		if r == nil {
			r = startRun(t, s.mode, s.prompt, fakeclaudeapi.Options{}, opts)
		}
		fail := func(kind, format string, args ...any) {
			tl.count(kind, 0, 0)
			tl.note("%s round %d: %s: %s", s.name, round, kind, fmt.Sprintf(format, args...))
			r.stop()
			r = nil
		}
		var d *conv.Dialog
		if !waitFor(120*time.Second, func() bool {
			d, _ = r.live.current()
			return d != nil && !seen[d.ToolID]
		}) || !waitFor(60*time.Second, func() bool { return strings.Contains(r.rig.Pane(r.target), s.marker) }) {
			fail("error", "no new picker")
			continue
		}
		seen[d.ToolID] = true
		if read > 0 {
			time.Sleep(read) // the operator reads the card
		}
		start := time.Now()
		err := r.actor.Answer(context.Background(), s.answer(d))
		call := time.Since(start)
		if err != nil {
			kind := "error"
			if conv.KindOf(err) == conv.EConflict {
				kind = "conflict"
			}
			fail(kind, "%v", err)
			continue
		}
		path := r.transcriptPath()
		var res resolution
		if !waitFor(60*time.Second, func() bool {
			var ok bool
			res, ok = findResolution(t, path, d.ToolID)
			return ok
		}) {
			fail("wrong", "Answer returned nil but the transcript recorded nothing")
			continue
		}
		if cerr := checkRecorded(t, s, res); cerr != nil {
			fail("wrong", "%v", cerr)
			continue
		}
		tl.count("ok", r.actor.lastTook, call)
		if round+1 < rounds {
			if err := r.nextRound(s); err != nil {
				tl.note("%s round %d: harness: %v", s.name, round, err)
				r.stop()
				r = nil
			}
		}
	}
	if r != nil {
		r.stop()
	}
}

// nextRound waits for the turn to end, restores plan mode for plan shapes
// and types the shape's prompt again.
func (r *cliRun) nextRound(s shape) error {
	if !waitFor(120*time.Second, func() bool {
		p, st := r.live.current()
		return p == nil && st == conv.StateNeedsInput
	}) {
		return fmt.Errorf("the turn did not end")
	}
	if s.mode == "plan" {
		if err := r.backToPlanMode(); err != nil {
			return err
		}
	}
	if err := r.actor.Reply(context.Background(), s.prompt); err != nil {
		return fmt.Errorf("typing the next prompt: %w", err)
	}
	return nil
}

// statusLine is the pane's last non-blank line: the mode indicator.
func statusLine(pane string) string {
	lines := strings.Split(strings.TrimRight(pane, "\n "), "\n")
	return lines[len(lines)-1]
}
