package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/push"
	"lab/internal/push/pushtest"
)

// BenchmarkBlockedToPushRealCLI measures "a run becomes blocked → its push
// request reaches the push service" with the real CLI: each iteration
// starts a lab:single run and times from the PreToolUse hook's spool file
// (named by the nanosecond the hook ran, just before the CLI draws its
// picker) to the encrypted push arriving at a local push endpoint.
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
	var lat []time.Duration
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
		files, _ := filepath.Glob(filepath.Join(lab.state, "runs", run.ID, "spool", "PreToolUse.*.json"))
		if len(files) != 1 {
			b.Fatalf("spool holds %v; want one PreToolUse", files)
		}
		parts := strings.Split(filepath.Base(files[0]), ".")
		nanos, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, got.At.Sub(time.Unix(0, nanos)))
		lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}
