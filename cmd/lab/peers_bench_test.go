package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lab/internal/claude/transcriptgen"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/store"
)

// linkPeers makes each of peers a peer of hub (named p1, p2, …) through a
// relay token made in its database, as `lab token create --relay` does.
func linkPeers(b *testing.B, hub *labServer, peers ...*labServer) {
	b.Helper()
	for i, p := range peers {
		db, err := OpenStore(context.Background(), p.state)
		if err != nil {
			b.Fatal(err)
		}
		tok, _, err := db.CreateScopedAPIToken(context.Background(), "hub", store.ScopeRelay)
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("p%d", i+1)
		if code := hub.call("POST", "/api/v1/peers", httpapi.PeerRequest{Name: name, URL: p.base, Token: tok}, nil); code != 201 {
			b.Fatalf("link %s: %d", name, code)
		}
	}
}

// timed is one GET's wall time; the answer must be 200.
func timed(b *testing.B, l *labServer, path string) time.Duration {
	b.Helper()
	req, _ := http.NewRequest("GET", l.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+l.token)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(start)
	if res.StatusCode != 200 {
		b.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	return d
}

// BenchmarkRunsAcrossThreeLabs times the hub's runs list with two peers
// (three labs, three live runs each, the real CLI) against the same
// server's list of its own runs only (machine=<itself>), alternating, 50
// pairs per iteration: the ratio is what gathering the peers costs.
//
//	go test ./cmd/lab -run '^$' -bench RunsAcrossThreeLabs -benchtime 4x -timeout 20m
func BenchmarkRunsAcrossThreeLabs(b *testing.B) {
	labs := []*labServer{startLab(b), startLab(b), startLab(b)}
	for _, l := range labs {
		for i := range 3 {
			var run conv.Run
			if code := l.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: b.TempDir(), Prompt: fmt.Sprintf("lab:text run %d", i)}, &run); code != 201 {
				b.Fatalf("start: %d", code)
			}
			l.waitPage(run.ID, "the turn to end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
		}
	}
	hub := labs[0]
	linkPeers(b, hub, labs[1:]...)
	var list httpapi.RunList
	hub.call("GET", "/api/v1/runs", nil, &list)
	if len(list.Runs) != 9 {
		b.Fatalf("the hub lists %d runs; want 9", len(list.Runs))
	}
	own := "/api/v1/runs?machine=" + list.Machines[0].Name
	var all, one []time.Duration
	b.ResetTimer()
	for range b.N {
		for range 50 {
			all = append(all, timed(b, hub, "/api/v1/runs"))
			one = append(one, timed(b, hub, own))
		}
	}
	b.StopTimer()
	b.ReportMetric(ms(quantile(all, 0.5)), "three-p50-ms")
	b.ReportMetric(ms(quantile(all, 0.95)), "three-p95-ms")
	b.ReportMetric(ms(quantile(one, 0.5)), "one-p50-ms")
	b.ReportMetric(ms(quantile(one, 0.95)), "one-p95-ms")
	b.ReportMetric(ms(quantile(all, 0.5))/ms(quantile(one, 0.5)), "p50-ratio")
}

// BenchmarkLatestWindow100MBViaHub times the latest window (100 messages)
// of a peer's 100 MB conversation through the hub against the peer asked
// directly, alternating, 100 pairs per iteration, after the one cold fold
// (on the peer; the hub keeps no copy). The conversation is a history
// session the transcript generator wrote into the peer's CLI home: the
// fold and window a run's chat uses, without a CLI loading 100 MB.
//
//	go test ./cmd/lab -run '^$' -bench LatestWindow100MBViaHub -benchtime 3x -timeout 20m
func BenchmarkLatestWindow100MBViaHub(b *testing.B) {
	hub, peer := startLab(b), startLab(b)
	opt := transcriptgen.Default()
	const id = "5e551011-0000-4000-8000-000000000001" // what the generator names the session for seed 1
	dir := filepath.Join(peer.state, "home", ".claude", "projects", "-work-big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, id+".jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	size, err := transcriptgen.Write(f, opt)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	linkPeers(b, hub, peer)
	direct := "/api/v1/sessions/" + id + "/messages?limit=100"
	relayed := "/api/v1/sessions/p1~" + id + "/messages?limit=100"
	var cold time.Duration
	claudetest.Poll(b, 2*time.Minute, "the peer to list the session", func() bool {
		if peer.call("GET", "/api/v1/sessions/"+id, nil, nil) != 200 {
			return false
		}
		cold = timed(b, peer, direct)
		return true
	})
	var page conv.Page
	if code := hub.call("GET", relayed, nil, &page); code != 200 || len(page.Messages) != 100 {
		b.Fatalf("through the hub: %d, %d messages", code, len(page.Messages))
	}
	var viaHub, asked []time.Duration
	b.ResetTimer()
	for range b.N {
		for range 100 {
			asked = append(asked, timed(b, peer, direct))
			viaHub = append(viaHub, timed(b, hub, relayed))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(size)/(1<<20), "transcript-MB")
	b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
	b.ReportMetric(ms(quantile(viaHub, 0.5)), "hub-p50-ms")
	b.ReportMetric(ms(quantile(viaHub, 0.95)), "hub-p95-ms")
	b.ReportMetric(ms(quantile(asked, 0.5)), "direct-p50-ms")
	b.ReportMetric(ms(quantile(asked, 0.95)), "direct-p95-ms")
	b.ReportMetric(ms(quantile(viaHub, 0.5))/ms(quantile(asked, 0.5)), "p50-ratio")
}
