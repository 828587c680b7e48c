package chat

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/claude/transcriptgen"
	"lab/internal/conv"
)

// percentile returns the p-th percentile (0..100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*p/100)]
}

func reportLatency(b *testing.B, all []time.Duration, ps ...float64) {
	slices.Sort(all)
	for _, p := range ps {
		b.ReportMetric(float64(percentile(all, p).Nanoseconds())/1e6, fmt.Sprintf("p%g-ms", p))
	}
	b.ReportMetric(float64(all[len(all)-1].Nanoseconds())/1e6, "max-ms")
}

// BenchmarkAppendToSSE measures the time from appending one line to a live
// run's transcript to its run.messages.changed event arriving at an SSE
// client over real HTTP: 200 appends per iteration, p50/p95 reported.
func BenchmarkAppendToSSE(b *testing.B) {
	var all []time.Duration
	for range b.N {
		f := newLiveFixture(b)
		events := f.events(b)
		for i := range 200 {
			start := time.Now()
			appendLines(b, f.transcript, lineUser(fmt.Sprintf("message %d", i)))
			for e := range events {
				if e.Type == conv.EventMessagesChanged && e.RunID == "run-1" {
					break
				}
			}
			all = append(all, time.Since(start))
		}
	}
	reportLatency(b, all, 50, 95)
}

// genTranscript writes a generated transcript of about size bytes in
// 2.1.328 shapes (big tool outputs, request blobs, thinking, dialogs).
func genTranscript(b *testing.B, path string, size int64, seed uint64) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	opt := transcriptgen.Default()
	opt.Size, opt.Seed = size, seed
	if size < 50<<20 {
		opt.HugeBlobs, opt.HugeBlobBytes = 1, int(size/8)
	}
	if _, err := transcriptgen.Write(f, opt); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLatestWindow100MB measures the latest-window request on a
// 100 MB history transcript once folded: each call re-checks the file and
// copies out the newest 100 messages. p50/p99 reported.
func BenchmarkLatestWindow100MB(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "-w"), 0o755)
	genTranscript(b, filepath.Join(root, "-w", "big.jsonl"), 100<<20, 1)
	lib := NewLibrary(testShelves(root), nil)
	ctx := context.Background()
	start := time.Now()
	if _, err := lib.Messages(ctx, "big", conv.Query{Limit: 100}); err != nil {
		b.Fatal(err)
	}
	cold := time.Since(start)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		p, err := lib.Messages(ctx, "big", conv.Query{Limit: 100})
		if err != nil || len(p.Messages) != 100 {
			b.Fatalf("got %d messages, %v", len(p.Messages), err)
		}
		lat = append(lat, time.Since(t0))
	}
	reportLatency(b, lat, 50, 99)
	b.ReportMetric(float64(cold.Milliseconds()), "cold-fold-ms")
}

// rssMB reads the process's resident and peak resident set in MB.
func rssMB() (rss, hwm float64) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(raw), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(l, "VmRSS: %f kB", &kb); err == nil {
			rss = kb / 1024
		}
		if _, err := fmt.Sscanf(l, "VmHWM: %f kB", &kb); err == nil {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// BenchmarkLiveRunsRSS follows 20 live runs whose transcripts are 20 MB
// each, as the server does, and reports the process's resident memory once
// all are folded (after a GC), with the baseline before they were opened.
func BenchmarkLiveRunsRSS(b *testing.B) {
	const runs, size = 20, 20 << 20
	dir := b.TempDir()
	for i := range runs {
		genTranscript(b, filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i)), size, uint64(i+1))
	}
	runtime.GC()
	debug.FreeOSMemory()
	base, _ := rssMB()
	for range b.N {
		runner := newStubRunner(b)
		for i := range runs {
			id := fmt.Sprintf("run-%d", i)
			runner.add(id)
			spoolEvent(b, runner.SpoolDir(id), "SessionStart", map[string]any{"hook_event_name": "SessionStart",
				"session_id": fmt.Sprintf("s%d", i), "transcript_path": filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i))})
		}
		svc, err := NewService(context.Background(), ServiceConfig{Runs: runner, Providers: []agent.Provider{claude.New()}, Library: NewLibrary(testShelves(dir), nil)})
		if err != nil {
			b.Fatal(err)
		}
		for i := range runs {
			// A read serves what the run's first refresh found: wait for it.
			var p conv.Page
			var err error
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if p, err = svc.Messages(context.Background(), fmt.Sprintf("run-%d", i), conv.Query{Limit: 50}); err != nil || len(p.Messages) > 0 {
					break
				}
			}
			if err != nil || len(p.Messages) == 0 {
				b.Fatalf("run %d: %d messages, %v", i, len(p.Messages), err)
			}
		}
		runtime.GC()
		debug.FreeOSMemory()
		rss, hwm := rssMB()
		b.ReportMetric(base, "base-rss-MB")
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(hwm, "peak-rss-MB")
		svc.Close()
	}
}

// BenchmarkSSESoak holds 100 SSE clients on a live run for a while
// (LAB_SOAK_SECONDS, default 10) while its transcript grows, then lets them
// go and reports goroutines before, during and after.
func BenchmarkSSESoak(b *testing.B) {
	secs := 10
	if v, err := strconv.Atoi(os.Getenv("LAB_SOAK_SECONDS")); err == nil && v > 0 {
		secs = v
	}
	for range b.N {
		f := newLiveFixture(b)
		runtime.GC()
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		var got atomic.Int64
		var wg sync.WaitGroup
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/api/v1/events", nil)
				req.Header.Set("Authorization", "Bearer "+f.token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return
				}
				defer resp.Body.Close()
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "event: run.messages.changed") {
						got.Add(1)
					}
				}
			}()
		}
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		appends, during := 0, 0
		for time.Now().Before(deadline) {
			appendLines(b, f.transcript, lineUser(fmt.Sprintf("soak %d", appends)))
			appends++
			time.Sleep(50 * time.Millisecond) // the load's pace, not synchronisation
			during = max(during, runtime.NumGoroutine())
		}
		cancel()
		wg.Wait()
		http.DefaultClient.CloseIdleConnections()
		var after int
		for range 100 {
			runtime.GC()
			if after = runtime.NumGoroutine(); after <= before+2 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		b.ReportMetric(float64(appends), "appends")
		b.ReportMetric(float64(got.Load())/100, "events/client")
		b.ReportMetric(float64(before), "goroutines-before")
		b.ReportMetric(float64(during), "goroutines-during")
		b.ReportMetric(float64(after), "goroutines-after")
	}
}
