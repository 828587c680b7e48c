package chat

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// TestPermissionTiming measures, against the real CLI, how long a
// permission prompt takes from being drawn on the pane to being served as
// the pending dialog, and from the operator's tap (the answer call) to
// the tool running. A measurement, not a check: figures go to
// docs/benchmarks.md ("Permission prompts").
//
//	LAB_PERMISSION_ROUNDS=20 go test ./internal/chat -run TestPermissionTiming -v
func TestPermissionTiming(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("LAB_PERMISSION_ROUNDS"))
	if rounds <= 0 {
		t.Skip("measurement; set LAB_PERMISSION_ROUNDS to run it")
	}
	var served, ran []time.Duration
	for i := range rounds {
		r := startRun(t, "manual", "lab:permission make a file", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
		// Watch the pane as fast as tmux answers, and the live view's own
		// state (driven by its tailer, not by this test's requests).
		var drawn, ready time.Time
		deadline := time.Now().Add(60 * time.Second)
		for (drawn.IsZero() || ready.IsZero()) && time.Now().Before(deadline) {
			if drawn.IsZero() && strings.Contains(r.rig.Pane(r.target), "Do you want to proceed?") {
				drawn = time.Now()
			}
			r.live.mu.Lock()
			p := r.live.pending
			r.live.mu.Unlock()
			if ready.IsZero() && p != nil && p.Kind == conv.DialogPermission {
				ready = time.Now()
			}
			time.Sleep(2 * time.Millisecond)
		}
		if drawn.IsZero() || ready.IsZero() {
			t.Fatalf("round %d: prompt drawn %v, served %v", i, drawn, ready)
		}
		served = append(served, ready.Sub(drawn))
		d := r.waitPermission()
		tap := time.Now()
		answerOption(t, r, d, 0, "")
		spool := r.live.side.Dir()
		var post time.Time
		for time.Now().Before(deadline) && post.IsZero() {
			ents, _ := os.ReadDir(spool)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), claude.HookPostToolUse+".") {
					if n, err := strconv.ParseInt(strings.Split(e.Name(), ".")[1], 10, 64); err == nil {
						post = time.Unix(0, n)
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		ran = append(ran, post.Sub(tap))
	}
	t.Logf("prompt drawn -> pending_dialog served: %s", quantiles(served))
	t.Logf("tap -> tool ran (its PostToolUse hook): %s", quantiles(ran))
}

func quantiles(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return "n=" + strconv.Itoa(len(s)) + " p50=" + at(0.5).Round(time.Millisecond).String() + " p95=" + at(0.95).Round(time.Millisecond).String() + " max=" + s[len(s)-1].Round(time.Millisecond).String()
}
