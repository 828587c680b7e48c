package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"lab/internal/conv"
)

// BenchmarkPeerEventToHubClient times an event published on a peer until
// it reaches an SSE client of the hub (the peer's stream, the hub's
// follower, the hub's broker, the hub's stream, all over loopback HTTP),
// and, for the same event, until it reaches a client of the peer itself:
// what the relay adds. 200 events per iteration, p50/p95 of each.
//
//	go test ./internal/httpapi -run '^$' -bench PeerEventToHubClient -benchtime 5x
func BenchmarkPeerEventToHubClient(b *testing.B) {
	hub, peer := newHarness(b, harnessOpt{}), newHarness(b, harnessOpt{})
	hub.linkPeer("p", peer)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, viaHub := hub.openStream(ctx, hub.client, rq{bearer: hub.token("phone")})
	_, direct := peer.openStream(ctx, peer.client, rq{bearer: peer.token("phone")})
	poll(b, "the hub to follow the peer", func() bool { return peer.srv.broker.Subscribers() == 2 })
	// Each stream is read on its own goroutine, which notes when each
	// event arrived.
	type arrival struct {
		id string
		at time.Time
	}
	stamp := func(frames <-chan sseFrame) <-chan arrival {
		out := make(chan arrival, 1024)
		go func() {
			defer close(out)
			for f := range frames {
				at := time.Now()
				var e conv.Event
				if json.Unmarshal([]byte(f.data), &e) == nil && e.RunID != "" {
					out <- arrival{e.RunID, at}
				}
			}
		}()
		return out
	}
	hubAt, directAt := stamp(viaHub), stamp(direct)
	await := func(ch <-chan arrival, id string) time.Time {
		for a := range ch {
			if a.id == id {
				return a.at
			}
		}
		b.Fatal("a stream ended")
		return time.Time{}
	}
	var hubLat, directLat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		for j := range 200 {
			id := fmt.Sprintf("r%d-%d", i, j)
			start := time.Now()
			peer.srv.broker.Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: id, State: conv.StateWorking})
			directLat = append(directLat, await(directAt, id).Sub(start))
			hubLat = append(hubLat, await(hubAt, "p~"+id).Sub(start))
		}
	}
	b.StopTimer()
	pct := func(d []time.Duration, p float64) float64 {
		slices.Sort(d)
		return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(hubLat, 0.5), "hub-p50-ms")
	b.ReportMetric(pct(hubLat, 0.95), "hub-p95-ms")
	b.ReportMetric(pct(directLat, 0.5), "direct-p50-ms")
	b.ReportMetric(pct(directLat, 0.95), "direct-p95-ms")
}
