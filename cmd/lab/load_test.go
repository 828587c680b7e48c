package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/push"
	"lab/internal/push/pushtest"
)

// Ten runs starting at once on a loaded machine (issue 21): no run is
// ever said to wait for its operator before its CLI ended the turn, and
// no device hears of a turn end early; reading a run's messages meanwhile
// stays quick (BenchmarkMessagesWhileStarting).

// busyCores keeps every core busy with a spinning goroutine until stop.
func busyCores() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for !done.Load() {
				for i := range 1 << 16 {
					x += i
				}
			}
			_ = x
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// subscribeDevice registers sub as a device through the API, asking for
// turn-end pushes when turnEnd is set.
func (l *labServer) subscribeDevice(name string, sub *pushtest.Subscription, turnEnd bool) push.Device {
	l.t.Helper()
	var req push.SubscribeRequest
	req.Name = name
	req.Subscription.Endpoint = sub.Endpoint
	req.Subscription.Keys.P256dh, req.Subscription.Keys.Auth = sub.P256dh, sub.Auth
	var d push.Device
	if code := l.call("POST", "/api/v1/push/devices", req, &d); code != 201 {
		l.t.Fatalf("subscribe %s: %d", name, code)
	}
	if turnEnd {
		o := d.Options
		o.TurnEnd = true
		if code := l.call("POST", "/api/v1/push/devices/"+d.ID, push.UpdateRequest{Options: o}, &d); code != 200 {
			l.t.Fatalf("options: %d", code)
		}
	}
	return d
}

// startRuns starts n runs at once, prompt i being prompt(i).
func (l *labServer) startRuns(n int, cwd string, prompt func(i int) string) []conv.Run {
	l.t.Helper()
	runs := make([]conv.Run, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = l.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: cwd, Prompt: prompt(i)}, &runs[i])
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 201 {
			l.t.Fatalf("start %d: status %d\n%s", i, c, l.log)
		}
	}
	return runs
}

// seenState is one state of a run as GET /runs showed it.
type seenState struct {
	at      time.Time
	state   conv.State
	preview string
}

// turnEnded returns when the CLI recorded the end of its first turn in the
// transcript: the timestamp of the first assistant line that ends it.
func turnEnded(t *testing.T, path string) (time.Time, bool) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var l struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Message   struct {
				StopReason string `json:"stop_reason"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "assistant" && l.Message.StopReason == "end_turn" {
			return l.Timestamp, true
		}
	}
	return time.Time{}, false
}

// TestServeTenRunsUnderLoad starts ten runs at once while every core is
// busy and records every state each run shows: none is needs_input before
// its CLI wrote the end of its turn, none goes back to working after, and
// the device that asked for turn ends gets exactly one push per run, after
// that end.
func TestServeTenRunsUnderLoad(t *testing.T) {
	lab := startLab(t)
	pushes := pushtest.New(t)
	lab.subscribeDevice("desk", pushes.Subscribe(t), true)

	stop := busyCores()
	defer stop()
	runs := lab.startRuns(10, t.TempDir(), func(i int) string { return fmt.Sprintf("lab:text load %d", i) })
	ids := map[string]bool{}
	for _, r := range runs {
		ids[r.ID] = true
	}

	// Every state change of every run, as the runs list shows it.
	seen := map[string][]seenState{}
	var mu sync.Mutex
	record := func() {
		var list struct{ Runs []conv.Run }
		lab.call("GET", "/api/v1/runs", nil, &list)
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		for _, r := range list.Runs {
			if !ids[r.ID] {
				continue
			}
			h := seen[r.ID]
			if len(h) == 0 || h[len(h)-1].state != r.State {
				seen[r.ID] = append(h, seenState{now, r.State, r.Preview})
			}
		}
	}
	ended := map[string]time.Time{}
	claudetest.Poll(t, 240*time.Second, "every run's turn to end", func() bool {
		record()
		for _, r := range runs {
			if _, ok := ended[r.ID]; ok {
				continue
			}
			got := lab.run(r.ID)
			if got.TranscriptPath == "" {
				continue
			}
			if at, ok := turnEnded(t, got.TranscriptPath); ok {
				ended[r.ID] = at
			}
		}
		if len(ended) < len(runs) {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		for id := range ids {
			if h := seen[id]; len(h) == 0 || h[len(h)-1].state != conv.StateNeedsInput {
				return false
			}
		}
		return true
	})
	// A moment more, for a late flip back to working to show.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		record()
		time.Sleep(50 * time.Millisecond)
	}
	stop()

	mu.Lock()
	defer mu.Unlock()
	for _, r := range runs {
		h := seen[r.ID]
		var states []string
		for _, s := range h {
			states = append(states, fmt.Sprintf("%s@%s", s.state, s.at.Format("15:04:05.000")))
		}
		first := slices.IndexFunc(h, func(s seenState) bool { return s.state == conv.StateNeedsInput })
		switch {
		case first < 0:
			t.Errorf("run %s never showed needs_input: %v", r.ID, states)
		case h[first].at.Before(ended[r.ID]):
			t.Errorf("run %s showed needs_input at %s, before its CLI ended the turn at %s: %v",
				r.ID, h[first].at.Format("15:04:05.000"), ended[r.ID].Format("15:04:05.000"), states)
		case first != len(h)-1:
			t.Errorf("run %s went back from needs_input: %v", r.ID, states)
		case !strings.Contains(h[first].preview, "You said"):
			t.Errorf("run %s showed needs_input with the preview %q; want the agent's answer", r.ID, h[first].preview)
		}
	}

	// Pushes: one turn end per run, none before that run's turn ended.
	got := map[string]int{}
	for done := false; !done; {
		select {
		case p := <-pushes.Received():
			if p.Err != nil {
				t.Fatalf("push service: %v", p.Err)
			}
			var pl push.Payload
			json.Unmarshal(p.Plaintext, &pl)
			if pl.Reason != push.ReasonTurnEnd || !ids[pl.RunID] {
				t.Errorf("push %+v; want only turn ends of the ten runs", pl)
				continue
			}
			got[pl.RunID]++
			if p.At.Before(ended[pl.RunID]) {
				t.Errorf("turn-end push for %s at %s, before its CLI ended the turn at %s", pl.RunID, p.At.Format("15:04:05.000"), ended[pl.RunID].Format("15:04:05.000"))
			}
		case <-time.After(5 * time.Second):
			done = true
		}
	}
	for id := range ids {
		if got[id] != 1 {
			t.Errorf("run %s: %d turn-end pushes; want 1", id, got[id])
		}
	}
}

// latencies times GET of each path in turn, every gap, until stop is
// closed (and at least min rounds). Each round starts at the next path,
// so no path always pays for waking up from the gap.
func (l *labServer) latencies(paths []string, gap time.Duration, min int, stop <-chan struct{}) [][]time.Duration {
	out := make([][]time.Duration, len(paths))
	for round := 0; ; round++ {
		select {
		case <-stop:
			if len(out[0]) >= min {
				return out
			}
		default:
		}
		for k := range paths {
			i := (round + k) % len(paths)
			path := paths[i]
			start := time.Now()
			if code := l.call("GET", path, nil, nil); code != 200 {
				l.t.Fatalf("GET %s: %d", path, code)
			}
			out[i] = append(out[i], time.Since(start))
		}
		time.Sleep(gap)
	}
}

// BenchmarkMessagesWhileStarting measures GET /runs/{id}/messages while
// ten runs start at once (until every one of them ended its first turn),
// of a run that settled before ("settled") and of the first of the ten
// ("starting"), against the settled run's reads with nothing else going
// on ("idle"): p50, p99 and max, and the ratios of the p99s. GET /healthz,
// which touches nothing but the HTTP stack, is timed beside them as the
// floor the busy machine sets. Run with -benchtime=1x.
func BenchmarkMessagesWhileStarting(b *testing.B) {
	for range b.N {
		lab := startLab(b)
		var run conv.Run
		if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: b.TempDir(), Prompt: "lab:text hello"}, &run); code != 201 {
			b.Fatalf("start: %d", code)
		}
		lab.waitPage(run.ID, "the first turn to end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
		settled := "/api/v1/runs/" + run.ID + "/messages"
		stop := make(chan struct{})
		close(stop)
		idle := lab.latencies([]string{settled, "/healthz"}, 20*time.Millisecond, 300, stop)

		cwd := b.TempDir()
		stop = make(chan struct{})
		first := make(chan string, 1)
		go func() {
			defer close(stop)
			var runs [10]conv.Run
			var wg sync.WaitGroup
			for i := range runs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: cwd, Prompt: fmt.Sprintf("lab:text start %d", i)}, &runs[i])
					if i == 0 {
						first <- runs[0].ID
					}
				}()
			}
			wg.Wait()
			deadline := time.Now().Add(120 * time.Second)
			for _, r := range runs {
				for time.Now().Before(deadline) {
					var p conv.Page
					if lab.call("GET", "/api/v1/runs/"+r.ID+"/messages", nil, &p) == 200 && p.State == conv.StateNeedsInput {
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
		}()
		starting := "/api/v1/runs/" + <-first + "/messages"
		busy := lab.latencies([]string{settled, starting, "/healthz"}, 20*time.Millisecond, 50, stop)
		report := func(name string, l []time.Duration) {
			b.ReportMetric(ms(quantile(l, 0.5)), name+"-p50-ms")
			b.ReportMetric(ms(quantile(l, 0.99)), name+"-p99-ms")
			b.ReportMetric(ms(quantile(l, 1)), name+"-max-ms")
		}
		report("idle", idle[0])
		report("settled", busy[0])
		report("starting", busy[1])
		report("healthz-idle", idle[1])
		report("healthz-busy", busy[2])
		b.ReportMetric(ms(quantile(busy[0], 0.99))/ms(quantile(idle[0], 0.99)), "settled/idle-p99")
		b.ReportMetric(ms(quantile(busy[1], 0.99))/ms(quantile(idle[0], 0.99)), "starting/idle-p99")
		b.ReportMetric(float64(len(busy[0])), "reads")
	}
}
