package httpapi

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedReplies counts replies and can hold them until released, like a
// reply whose typing takes a while.
type gatedReplies struct {
	Runs
	calls atomic.Int32
	gate  chan struct{} // nil: replies go through at once
	fail  atomic.Int32  // the next replies that fail with a 503
}

func (g *gatedReplies) Reply(ctx context.Context, id, text string, uploads ...string) error {
	g.calls.Add(1)
	if g.fail.Add(-1) >= 0 {
		return context.DeadlineExceeded // a 500: worth another attempt
	}
	if g.gate != nil {
		<-g.gate
	}
	return g.Runs.Reply(ctx, id, text, uploads...)
}

func TestIdempotencyKeyRepliesOnce(t *testing.T) {
	var runs *gatedReplies
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		runs = &gatedReplies{Runs: c.Runs}
		c.Runs = runs
	}})
	bearer := h.token("idem")
	if got := h.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"` + t.TempDir() + `","prompt":"go"}`, bearer: bearer}); got.status != http.StatusCreated {
		t.Fatalf("start: %d %s", got.status, got.body)
	}
	reply := func(key, path string) resp {
		return h.do(rq{method: "POST", path: path, body: `{"text":"once"}`, bearer: bearer, header: map[string]string{IdempotencyHeader: key}})
	}
	const key = "k-0123456789abcdef"
	first := reply(key, "/api/v1/runs/r1/reply")
	if first.status != http.StatusNoContent || first.header.Get(IdempotentReplayHeader) != "" {
		t.Fatalf("first attempt: %d %v; want 204, not a replay", first.status, first.header)
	}
	again := reply(key, "/api/v1/runs/r1/reply")
	if again.status != http.StatusNoContent || again.header.Get(IdempotentReplayHeader) != "true" || runs.calls.Load() != 1 {
		t.Fatalf("same key again: %d %v after %d replies; want the first answer replayed, one reply", again.status, again.header, runs.calls.Load())
	}
	if other := reply(key, "/api/v1/runs/r1/answer"); other.status != http.StatusConflict || !strings.Contains(other.errMsg(t), "another request") {
		t.Fatalf("the key on another request: %d %s; want 409", other.status, other.body)
	}
	if bad := reply("short", "/api/v1/runs/r1/reply"); bad.status != http.StatusBadRequest || runs.calls.Load() != 1 {
		t.Fatalf("a malformed key: %d; want 400 and nothing typed", bad.status)
	}

	// A 5xx is not remembered: the next attempt acts.
	runs.fail.Store(1)
	if got := reply("k-retry-after-5xx-00", "/api/v1/runs/r1/reply"); got.status != http.StatusInternalServerError {
		t.Fatalf("failing attempt: %d; want 500", got.status)
	}
	if got := reply("k-retry-after-5xx-00", "/api/v1/runs/r1/reply"); got.status != http.StatusNoContent || got.header.Get(IdempotentReplayHeader) != "" {
		t.Fatalf("attempt after a 500: %d %v; want it to act (204, not a replay)", got.status, got.header)
	}

	// A client that gives up mid-reply (its network died): the reply goes
	// on to its end, and the client's next attempt with the key waits for
	// it and gets its answer. Nothing is typed twice.
	runs.gate = make(chan struct{})
	before := runs.calls.Load()
	const slowKey = "k-client-left-midway"
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", h.ts.URL+"/api/v1/runs/r1/reply", strings.NewReader(`{"text":"late"}`))
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set(IdempotencyHeader, slowKey)
	if _, err := h.client.Do(req); err == nil {
		t.Fatal("the held reply answered; want the client to give up first")
	}
	var wg sync.WaitGroup
	var retried resp
	wg.Add(1)
	go func() {
		defer wg.Done()
		retried = reply(slowKey, "/api/v1/runs/r1/reply")
	}()
	poll(t, "the retry to wait for the first attempt", func() bool { return h.srv.idemLocks.waiting(slowKey) == 2 })
	close(runs.gate)
	wg.Wait()
	if retried.status != http.StatusNoContent || runs.calls.Load() != before+1 {
		t.Fatalf("retry after the client left: %d after %d replies; want 204 from the one reply", retried.status, runs.calls.Load()-before)
	}
	var page struct{ Messages []struct{ Text string } }
	h.get(bearer, "/api/v1/runs/r1/messages", &page)
	n := 0
	for _, m := range page.Messages {
		if m.Text == "late" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the reply is in the chat %d times; want once", n)
	}
}
