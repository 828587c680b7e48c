package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"lab/internal/conv"
)

// events: GET /api/v1/events streams the broker's events as SSE until the
// client leaves, the subscriber is dropped for lagging, or the server
// drains. Clients treat every (re)connect as "refetch everything". A
// heartbeat comes at once and then every interval, saying the interval
// (every_ms), so a client can tell a stream gone silent (a proxy or a
// network that keeps the connection open but carries nothing) from a
// quiet one. heartbeat=N asks for a heartbeat every N seconds when that is more
// often: a hub following this lab notices a dead stream sooner. A
// hub's relay token hears only this lab's own runs.
func (s *Server) events(w http.ResponseWriter, r *http.Request) error {
	every := s.cfg.Heartbeat
	if v := r.URL.Query().Get("heartbeat"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return conv.Errorf(conv.EInvalid, "heartbeat=%q: want whole seconds, at least 1", v)
		}
		every = min(every, time.Duration(n)*time.Second)
	}
	sub, ok := s.broker.subscribe(isRelayToken(r))
	if !ok {
		return conv.Errorf(conv.EUnavailable, "the server is shutting down")
	}
	defer s.broker.unsubscribe(sub)
	defer s.closeStream(w)

	write := s.openStream(w)
	beat := frame(conv.Event{Type: conv.EventHeartbeat, EveryMS: every.Milliseconds()})
	// The retry hint and the first heartbeat also flush the headers, so
	// the client sees the stream open, and how often it will hear from
	// it, before the first event.
	if !write(append([]byte("retry: 2000\n\n"), beat...)) {
		return nil
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case f, ok := <-sub.ch:
			if !ok { // dropped for lagging, or draining
				return nil
			}
			if !write(f) {
				return nil
			}
		case <-tick.C:
			if !s.stillAllowed(r) || !write(beat) {
				return nil
			}
		}
	}
}

// stillAllowed reports whether a stream opened with a bearer token may go
// on: a token revoked since (a hub's, say) ends its stream at the next
// heartbeat, and the client's reconnect is refused.
func (s *Server) stillAllowed(r *http.Request) bool {
	p := principalFrom(r.Context())
	if p == nil || p.token == nil {
		return true
	}
	ok, err := s.store.HasAPIToken(r.Context(), p.token.ID)
	return ok || err != nil
}

// openStream starts an SSE response and returns its writer, which sends
// one frame and flushes it, reporting false once the client is gone.
// The server's WriteTimeout is for ordinary requests; a stream lives for
// hours. Each write moves the deadline instead, so a client that stopped
// reading cannot pin the handler either. (net/http already lifts the read
// deadline once the request is read.) Call closeStream when done, so the
// last write stays bounded too.
func (s *Server) openStream(w http.ResponseWriter) func([]byte) bool {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	// The connection carries one stream and is not reused, so no later
	// request inherits the deadlines set here.
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	return func(f []byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(s.cfg.SSEWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return false
		}
		if _, err := w.Write(f); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
}

// closeStream bounds the last write of a stream.
func (s *Server) closeStream(w http.ResponseWriter) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.SSEWriteTimeout))
}
