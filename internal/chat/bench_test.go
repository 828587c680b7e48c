package chat

import (
	"fmt"
	"slices"
	"testing"
	"time"

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
