package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/push"
	"lab/internal/push/pushtest"
)

// BenchmarkBlockedToPushRealCLI measures "a run becomes blocked → its push
// request reaches the push service" with the real CLI: each iteration
// starts a lab:single run and times from the PreToolUse hook's spool file
// (named by the nanosecond the hook ran, just before the CLI draws its
// picker) or the dialog's transcript line, whichever came first, to the
// encrypted push arriving at a local push endpoint.
//
//	go test ./cmd/lab -run '^$' -bench BlockedToPushRealCLI -benchtime 20x -timeout 30m
func BenchmarkBlockedToPushRealCLI(b *testing.B) {
	lab := startLab(b)
	svc := pushtest.New(b)
	sub := svc.Subscribe(b)
	var req push.SubscribeRequest
	req.Name = "bench"
	req.Subscription.Endpoint = sub.Endpoint
	req.Subscription.Keys.P256dh, req.Subscription.Keys.Auth = sub.P256dh, sub.Auth
	if code := lab.call("POST", "/api/v1/push/devices", req, nil); code != 201 {
		b.Fatalf("subscribe: %d", code)
	}
	var lat, fromHook, fromLine []time.Duration
	for range b.N {
		var run conv.Run
		if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: b.TempDir(), Prompt: "lab:single pick one"}, &run); code != 201 {
			b.Fatalf("start: %d", code)
		}
		var got pushtest.Push
		select {
		case got = <-svc.Received():
		case <-time.After(2 * time.Minute):
			b.Fatalf("no push for run %s\n%s", run.ID, lab.log)
		}
		// Blocked is the earlier of two signs: the PreToolUse hook's
		// spool file (named by the nanosecond the hook ran) and the
		// dialog's line in the transcript (its timestamp), which the CLI
		// may write first; lab pushes on whichever it sees first.
		var blocked, hookAt time.Time
		claudetestPoll(b, func() bool {
			files, _ := filepath.Glob(filepath.Join(lab.state, "runs", run.ID, "spool", "PreToolUse.*.json"))
			p := lab.page(run.ID)
			for _, m := range p.Messages {
				if m.Kind == conv.KindDialog && !m.Time.IsZero() {
					blocked = m.Time
				}
			}
			if len(files) == 0 || blocked.IsZero() {
				return false
			}
			nanos, err := strconv.ParseInt(strings.Split(filepath.Base(files[0]), ".")[1], 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			hookAt = time.Unix(0, nanos)
			return true
		})
		fromLine = append(fromLine, got.At.Sub(blocked))
		fromHook = append(fromHook, got.At.Sub(hookAt))
		if hookAt.Before(blocked) {
			blocked = hookAt
		}
		lat = append(lat, got.At.Sub(blocked))
		lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil)
	}
	b.ReportMetric(ms(quantile(lat, 0.5)), "p50-ms")
	b.ReportMetric(ms(quantile(lat, 0.95)), "p95-ms")
	b.ReportMetric(ms(quantile(lat, 1)), "max-ms")
	b.ReportMetric(ms(quantile(fromHook, 0.5)), "hook-p50-ms")
	b.ReportMetric(ms(quantile(fromHook, 0.95)), "hook-p95-ms")
	b.ReportMetric(ms(quantile(fromLine, 0.5)), "line-p50-ms")
	b.ReportMetric(ms(quantile(fromLine, 0.95)), "line-p95-ms")
}

func claudetestPoll(b *testing.B, cond func() bool) {
	b.Helper()
	claudetest.Poll(b, 30*time.Second, "the blocked signs", cond)
}
