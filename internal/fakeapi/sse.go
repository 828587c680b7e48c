package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// SSE writes server-sent events, flushing each, until the client leaves.
type SSE struct {
	w   http.ResponseWriter
	ctx context.Context
	rc  *http.ResponseController
}

// NewSSE starts an event stream on w with its headers (requestIDHeader
// names the header the real API puts its request id in) and status 200;
// ctx is the request's, so sends stop when the client goes away.
func NewSSE(w http.ResponseWriter, ctx context.Context, requestIDHeader string) *SSE {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set(requestIDHeader, "req_lab_scripted")
	w.WriteHeader(http.StatusOK)
	return &SSE{w: w, ctx: ctx, rc: http.NewResponseController(w)}
}

// Send writes one event with data as its single-line JSON.
func (st *SSE) Send(event string, data any) error {
	if err := st.ctx.Err(); err != nil {
		return err
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(st.w, "event: %s\ndata: %s\n\n", event, b); err != nil {
		return err
	}
	return st.rc.Flush()
}

// Sleep pauses for d unless the client goes away first.
func (st *SSE) Sleep(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-st.ctx.Done():
		return st.ctx.Err()
	case <-t.C:
		return nil
	}
}
