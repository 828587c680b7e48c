package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lab/internal/conv"
)

// sseFrame is one parsed server-sent event.
type sseFrame struct {
	event, data, retry string
}

// readFrames parses frames from a stream into a channel until it ends.
func readFrames(br *bufio.Reader) <-chan sseFrame {
	ch := make(chan sseFrame, 16)
	go func() {
		defer close(ch)
		var f sseFrame
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case line == "":
				ch <- f
				f = sseFrame{}
			case strings.HasPrefix(line, "event: "):
				f.event = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				if f.data != "" {
					f.data += "\n" // a multi-line data field: the tests below refuse it
				}
				f.data += line[len("data: "):]
			case strings.HasPrefix(line, "retry: "):
				f.retry = line[len("retry: "):]
			}
		}
	}()
	return ch
}

// openStream opens GET /api/v1/events with r's credentials.
func (h *harness) openStream(ctx context.Context, client *http.Client, r rq) (*http.Response, <-chan sseFrame) {
	h.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", h.ts.URL+"/api/v1/events", nil)
	if err != nil {
		h.t.Fatal(err)
	}
	if r.cookie != "" {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: r.cookie})
	}
	if r.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.bearer)
	}
	res, err := client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		h.t.Fatalf("GET /api/v1/events: got %d; want 200", res.StatusCode)
	}
	h.t.Cleanup(func() { res.Body.Close() })
	return res, readFrames(bufioReader(res))
}

func bufioReader(res *http.Response) *bufio.Reader { return bufio.NewReader(res.Body) }

func next(t *testing.T, frames <-chan sseFrame) (sseFrame, bool) {
	t.Helper()
	select {
	case f, ok := <-frames:
		return f, ok
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for an SSE frame")
		return sseFrame{}, false
	}
}

func TestSSEDeliversEventsAndHeartbeats(t *testing.T) {
	const serverTimeout = 50 * time.Millisecond
	h := newHarness(t, harnessOpt{
		config: func(c *Config) { c.Heartbeat = 20 * time.Millisecond },
		// An ordinary request must finish within these; a stream must not.
		server: func(s *http.Server) { s.ReadTimeout, s.WriteTimeout = serverTimeout, serverTimeout },
	})
	cookie, _ := h.login() // a browser's EventSource sends the cookie; GET needs no CSRF token
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := time.Now()
	res, frames := h.openStream(ctx, h.client, rq{cookie: cookie})
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("header %s = %q; want %q", k, got, want)
		}
	}
	if f, _ := next(t, frames); f.retry == "" {
		t.Fatalf("first frame %+v; want a retry hint", f)
	}
	// A heartbeat at once, saying how often they come: a client knows the
	// stream is open and when to give it up for dead.
	if f, _ := next(t, frames); f.event != conv.EventHeartbeat || f.data != `{"type":"heartbeat","every_ms":20}` {
		t.Fatalf("second frame %+v; want a heartbeat saying every_ms 20", f)
	}
	poll(t, "the subscription", func() bool { return h.srv.Broker().Subscribers() == 1 })
	h.srv.Broker().Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: "r1", State: conv.StateWorking, BackpatchSeq: 3})
	for {
		f, ok := next(t, frames)
		if !ok {
			t.Fatal("stream ended before the event")
		}
		if f.event == conv.EventHeartbeat {
			continue
		}
		want := `{"type":"run.messages.changed","run_id":"r1","state":"working","backpatch_seq":3}`
		if f.event != conv.EventMessagesChanged || f.data != want {
			t.Fatalf("got event %q data %s; want %q %s", f.event, f.data, conv.EventMessagesChanged, want)
		}
		break
	}
	// Heartbeats keep coming long past the server's read and write
	// timeouts: the stream lifted them.
	beats := 0
	for time.Since(opened) < 6*serverTimeout || beats < 3 {
		f, ok := next(t, frames)
		if !ok {
			t.Fatalf("stream ended after %v and %d heartbeats; want it to outlive the server timeouts", time.Since(opened), beats)
		}
		if f.event != conv.EventHeartbeat || f.data != `{"type":"heartbeat","every_ms":20}` {
			t.Fatalf("got %+v; want a heartbeat", f)
		}
		beats++
	}
	cancel()
	poll(t, "the subscriber to leave", func() bool { return h.srv.Broker().Subscribers() == 0 })
}

func TestSSEEndsOnDrain(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	_, frames := h.openStream(context.Background(), h.client, rq{bearer: h.token("drain")})
	next(t, frames) // retry hint
	poll(t, "the subscription", func() bool { return h.srv.Broker().Subscribers() == 1 })
	h.srv.Drain()
	for {
		f, ok := next(t, frames)
		if !ok {
			break
		}
		if f.event != conv.EventHeartbeat {
			t.Fatalf("got %+v after Drain; want the stream to end", f)
		}
	}
	h.srv.Broker().Publish(conv.Event{Type: conv.EventRunChanged}) // no panic after Close
}

// stuckWriter is a client that stops reading: after the first write
// (the retry hint) every Write blocks until released.
type stuckWriter struct {
	header  http.Header
	writes  atomic.Int32
	started chan struct{}
	stuck   chan struct{}
	release chan struct{}
}

func (w *stuckWriter) Header() http.Header { return w.header }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Flush()              {}
func (w *stuckWriter) Write(b []byte) (int, error) {
	if w.writes.Add(1) == 1 {
		close(w.started)
		return len(b), nil
	}
	close(w.stuck)
	<-w.release
	return 0, errors.New("connection reset")
}

func TestSSESlowSubscriberIsDropped(t *testing.T) {
	const buffer = 4
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.Broker = NewBroker(buffer)
		c.Runs = newFakeRuns(c.Broker)
	}})
	b := h.srv.Broker()
	healthy, _ := b.subscribe(false)
	w := &stuckWriter{header: http.Header{}, started: make(chan struct{}), stuck: make(chan struct{}), release: make(chan struct{})}
	req := httptest.NewRequest("GET", "/api/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+h.token("slow"))
	done := make(chan struct{})
	go func() { defer close(done); h.srv.ServeHTTP(w, req) }()
	<-w.started
	poll(t, "the slow subscription", func() bool { return b.Subscribers() == 2 })

	publish := func(i int) {
		t.Helper()
		returned := make(chan struct{})
		go func() { b.Publish(conv.Event{Type: conv.EventRunChanged, RunID: itoa(i)}); close(returned) }()
		select {
		case <-returned:
		case <-time.After(10 * time.Second):
			t.Fatalf("Publish %d blocked on a slow subscriber", i)
		}
		select { // the healthy subscriber got it, in order
		case f := <-healthy.ch:
			if !strings.Contains(string(f), `"run_id":"`+itoa(i)+`"`) {
				t.Fatalf("healthy subscriber got %q; want event %d", f, i)
			}
		default:
			t.Fatalf("healthy subscriber lacks event %d", i)
		}
	}
	publish(0) // the handler takes it and blocks writing it
	<-w.stuck
	for i := 1; i <= buffer; i++ { // fills the slow subscriber's buffer
		publish(i)
	}
	if b.Subscribers() != 2 || b.Dropped() != 0 {
		t.Fatalf("with a full buffer: %d subscribers, %d dropped; want 2, 0", b.Subscribers(), b.Dropped())
	}
	publish(buffer + 1) // one too many
	if b.Subscribers() != 1 || b.Dropped() != 1 {
		t.Fatalf("after overflow: %d subscribers, %d dropped; want 1, 1", b.Subscribers(), b.Dropped())
	}
	close(w.release)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the dropped subscriber's handler did not return")
	}
	b.unsubscribe(healthy)
}

func TestSSEClientsLeaveNoGoroutines(t *testing.T) {
	const clients = 100
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Heartbeat = 50 * time.Millisecond }})
	bearer := h.token("many")
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	baseline := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	var got sync.WaitGroup
	var readers sync.WaitGroup
	got.Add(clients)
	for range clients {
		_, frames := h.openStream(ctx, client, rq{bearer: bearer})
		readers.Go(func() {
			seen := false
			for f := range frames {
				if f.event == conv.EventRunChanged && !seen {
					seen = true
					got.Done()
				}
			}
		})
	}
	poll(t, "100 subscriptions", func() bool { return h.srv.Broker().Subscribers() == clients })
	h.srv.Broker().Publish(conv.Event{Type: conv.EventRunChanged, RunID: "r1"})
	waitGroup(t, &got, "every client to get the event")
	if peak := runtime.NumGoroutine(); peak < baseline+clients {
		t.Fatalf("got %d goroutines with %d streams open from a baseline of %d; the test is not measuring", peak, clients, baseline)
	}
	cancel()
	waitGroup(t, &readers, "the clients to stop reading")
	poll(t, "every subscriber to leave", func() bool { return h.srv.Broker().Subscribers() == 0 })
	tr.CloseIdleConnections()
	var n int
	poll(t, "goroutines back to baseline", func() bool { n = runtime.NumGoroutine(); return n <= baseline })
	if h.srv.Broker().Dropped() != 0 {
		t.Fatalf("%d subscribers dropped; want 0", h.srv.Broker().Dropped())
	}
}

func waitGroup(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestFrameIsOneEventOneDataLine(t *testing.T) {
	got := string(frame(conv.Event{Type: conv.EventRunChanged, RunID: "a\nb\r\nc"}))
	want := "event: run.changed\ndata: {\"type\":\"run.changed\",\"run_id\":\"a\\nb\\r\\nc\"}\n\n"
	if got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
	var e conv.Event
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.SplitN(got, "data: ", 2)[1], "\n\n")), &e); err != nil || e.RunID != "a\nb\r\nc" {
		t.Fatalf("data does not round-trip: %+v, %v", e, err)
	}
}

func TestBroker(t *testing.T) {
	b := NewBroker(8)
	a, _ := b.subscribe(false)
	c, _ := b.subscribe(false)
	b.Publish(conv.Event{Type: conv.EventRunChanged, RunID: "1"})
	b.Publish(conv.Event{Type: ""})              // ignored
	b.Publish(conv.Event{Type: "evil\ndata: x"}) // ignored
	b.Publish(conv.Event{Type: conv.EventRunChanged, RunID: "2"})
	for _, s := range []*subscriber{a, c} {
		if n := len(s.ch); n != 2 {
			t.Fatalf("subscriber has %d frames; want 2", n)
		}
		if f := string(<-s.ch); !strings.Contains(f, `"run_id":"1"`) {
			t.Fatalf("first frame %q; want run 1", f)
		}
	}
	if b.Published() != 2 {
		t.Fatalf("Published = %d; want 2", b.Published())
	}
	b.unsubscribe(a)
	b.unsubscribe(a) // idempotent
	<-a.ch           // the buffered second frame is still there
	if _, open := <-a.ch; open {
		t.Fatal("unsubscribed channel still open")
	}
	b.Close()
	b.Close()
	<-c.ch // the buffered frame is still there
	if _, open := <-c.ch; open {
		t.Fatal("channel open after Close")
	}
	if _, ok := b.subscribe(false); ok {
		t.Fatal("subscribe after Close succeeded")
	}
	b.unsubscribe(c) // after Close: no double close
	b.Publish(conv.Event{Type: conv.EventRunChanged})
	if b.Subscribers() != 0 || b.Published() != 2 {
		t.Fatalf("after Close: %d subscribers, %d published; want 0, 2", b.Subscribers(), b.Published())
	}
}

// TestShutdownDrainsStreams: http.Server.Shutdown on the server HTTPServer
// builds ends open event streams instead of waiting on them forever.
func TestShutdownDrainsStreams(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	hs := h.srv.HTTPServer("127.0.0.1:0")
	ln, err := net.Listen("tcp", hs.Addr)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+h.token("shutdown"))
	res, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("open stream: %v %v", err, res)
	}
	defer res.Body.Close()
	frames := readFrames(bufioReader(res))
	next(t, frames) // retry hint: the stream is open
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v; want the open stream drained", err)
	}
	if err := <-served; err != http.ErrServerClosed {
		t.Fatalf("Serve returned %v; want ErrServerClosed", err)
	}
	for f := range frames {
		if f.event != conv.EventHeartbeat {
			t.Fatalf("got %+v after shutdown; want the stream to end", f)
		}
	}
}
