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

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// TestPacing measures how reliably the recipes land at several key delays:
// the whole shape matrix, many rounds per delay, against the real CLI. It
// is long (minutes to tens of minutes), so it only runs when asked:
//
//	LAB_PACING_ROUNDS=10 [LAB_PACING_DELAYS=25ms,50ms,100ms,250ms] \
//	[LAB_PACING_PARALLEL=2] [LAB_PACING_OUT=/tmp/pacing.md] \
//	go test ./internal/chat -run TestPacing -v -timeout 3h
//
// Each shape gets one CLI per delay, answered round after round (the next
// round's prompt is typed with Reply; plans are put back into plan mode
// with shift+tab). A round is "ok" when Answer returned nil and the
// transcript recorded exactly the intended answer, "conflict" when a
// checkpoint stopped the recipe before committing (the safe failure),
// "wrong" when the transcript recorded anything else (the unsafe one),
// "error" otherwise. The figures are in docs/benchmarks-answers.md.
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
	var mu sync.Mutex
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
				res := paceShape(t, j.shape, j.delay, rounds)
				mu.Lock()
				tallies[j.delay].add(res)
				mu.Unlock()
			})
		}
	})

	var b strings.Builder
	fmt.Fprintf(&b, "| key delay | answers | ok | conflict (stopped safely) | wrong | error | median time to commit | p90 time to commit |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|\n")
	for _, d := range delays {
		tl := tallies[d]
		fmt.Fprintf(&b, "| %v | %d | %d | %d | %d | %d | %v | %v |\n", d, tl.n(), tl.ok, tl.conflict, tl.wrong, tl.err,
			tl.pct(50).Round(10*time.Millisecond), tl.pct(90).Round(10*time.Millisecond))
	}
	for _, d := range delays {
		for _, n := range tallies[d].notes {
			fmt.Fprintf(&b, "\n- %v: %s", d, n)
		}
	}
	t.Logf("pacing (%d rounds per shape, %d shapes):\n%s", rounds, len(shapes), b.String())
	if out := os.Getenv("LAB_PACING_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
}

type tally struct {
	ok, conflict, wrong, err int
	took                     []time.Duration
	notes                    []string
}

func (t *tally) n() int { return t.ok + t.conflict + t.wrong + t.err }

func (t *tally) add(o *tally) {
	t.ok += o.ok
	t.conflict += o.conflict
	t.wrong += o.wrong
	t.err += o.err
	t.took = append(t.took, o.took...)
	t.notes = append(t.notes, o.notes...)
}

func (t *tally) pct(p int) time.Duration {
	if len(t.took) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), t.took...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

// paceShape answers shape s rounds times in one CLI with the given key
// delay.
func paceShape(t *testing.T, s shape, delay time.Duration, rounds int) *tally {
	opts := e2eOpts(delay)
	opts.SettleTimeout = 30 * time.Second
	r := startRun(t, s.mode, s.prompt, fakeclaudeapi.Options{}, opts)
	res := &tally{}
	seen := map[string]bool{}
	for round := 0; round < rounds; round++ {
		var d *conv.Dialog
		claudetest.Poll(t, 120*time.Second, "a new pending dialog", func() bool {
			d, _ = r.live.current()
			return d != nil && !seen[d.ToolID]
		})
		seen[d.ToolID] = true
		r.rig.WaitPane(r.target, s.marker, 60*time.Second)
		err := r.actor.Answer(context.Background(), s.answer(d))
		took := r.actor.lastTook
		switch {
		case conv.KindOf(err) == conv.EConflict:
			res.conflict++
			res.notes = append(res.notes, fmt.Sprintf("%s round %d: %v", s.name, round, err))
			// Leave nothing half-answered: decline, and go on.
			r.rig.Keys(r.target, "Escape")
		case err != nil:
			res.err++
			res.notes = append(res.notes, fmt.Sprintf("%s round %d: %v", s.name, round, err))
			r.rig.Keys(r.target, "Escape")
		default:
			if cerr := checkRecorded(t, s, r.waitResolution(d.ToolID)); cerr != nil {
				res.wrong++
				res.notes = append(res.notes, fmt.Sprintf("%s round %d: WRONG: %v", s.name, round, cerr))
			} else {
				res.ok++
				res.took = append(res.took, took)
			}
		}
		if round+1 == rounds {
			break
		}
		r.nextRound(s)
	}
	return res
}

// nextRound waits for the turn to end, restores plan mode for plan shapes
// and types the shape's prompt again.
func (r *cliRun) nextRound(s shape) {
	r.t.Helper()
	claudetest.Poll(r.t, 120*time.Second, "the turn to end", func() bool {
		p, st := r.live.current()
		return p == nil && st == conv.StateNeedsInput
	})
	if s.mode == "plan" {
		for i := 0; !strings.Contains(statusLine(r.rig.Pane(r.target)), "plan mode on"); i++ {
			if i == 8 {
				r.t.Fatalf("could not get back to plan mode; pane:\n%s", r.rig.Pane(r.target))
			}
			before := statusLine(r.rig.Pane(r.target))
			r.rig.Keys(r.target, "BTab")
			claudetest.Poll(r.t, 10*time.Second, "the mode to change", func() bool {
				return statusLine(r.rig.Pane(r.target)) != before
			})
		}
	}
	if err := r.actor.Reply(context.Background(), s.prompt); err != nil {
		r.t.Fatalf("typing the next prompt: %v", err)
	}
}

// statusLine is the pane's last non-blank line: the mode indicator.
func statusLine(pane string) string {
	lines := strings.Split(strings.TrimRight(pane, "\n "), "\n")
	return lines[len(lines)-1]
}
