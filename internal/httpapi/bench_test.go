package httpapi

import (
	"context"
	"net/http"
	"testing"

	"lab/internal/conv"
)

// BenchmarkBrokerPublish100 is the publisher's cost of one event with 100
// subscribers: what the chat layer pays per change. Buffers are drained
// outside the timer so no subscriber is ever dropped.
func BenchmarkBrokerPublish100(b *testing.B) {
	const subs, buffer = 100, 512
	br := NewBroker(buffer)
	var all []*subscriber
	for range subs {
		s, _ := br.subscribe(false)
		all = append(all, s)
	}
	e := conv.Event{Type: conv.EventMessagesChanged, RunID: "r1", State: conv.StateWorking, BackpatchSeq: 12}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%buffer == buffer-1 {
			b.StopTimer()
			for _, s := range all {
				for len(s.ch) > 0 {
					<-s.ch
				}
			}
			b.StartTimer()
		}
		br.Publish(e)
	}
	b.StopTimer()
	if br.Dropped() != 0 {
		b.Fatalf("%d subscribers dropped", br.Dropped())
	}
}

// BenchmarkSSEFanout100 is one event's trip from Publish to 100 SSE
// clients over loopback HTTP, each parsing the frame: ns/op is the time
// until the last of them has it.
func BenchmarkSSEFanout100(b *testing.B) {
	const clients = 100
	h := newHarness(b, harnessOpt{})
	bearer := h.token("bench")
	client := &http.Client{Transport: &http.Transport{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan struct{}, clients)
	for range clients {
		req, _ := http.NewRequestWithContext(ctx, "GET", h.ts.URL+"/api/v1/events", nil)
		req.Header.Set("Authorization", "Bearer "+bearer)
		res, err := client.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("open stream: %v %v", err, res)
		}
		b.Cleanup(func() { res.Body.Close() })
		frames := readFrames(bufioReader(res))
		go func() {
			for f := range frames {
				if f.event == conv.EventRunChanged {
					got <- struct{}{}
				}
			}
		}()
	}
	poll(b, "subscriptions", func() bool { return h.srv.Broker().Subscribers() == clients })
	e := conv.Event{Type: conv.EventRunChanged, RunID: "r1"}
	b.ResetTimer()
	for range b.N {
		h.srv.Broker().Publish(e)
		for range clients {
			<-got
		}
	}
	b.StopTimer()
	if d := h.srv.Broker().Dropped(); d != 0 {
		b.Fatalf("%d subscribers dropped", d)
	}
}
