package fakeapi

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSSE(t *testing.T) {
	w := httptest.NewRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	st := NewSSE(w, ctx, "x-request-id")
	if err := st.Send("ping", map[string]any{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if got := w.Body.String(); got != "event: ping\ndata: {\"n\":1}\n\n" || !w.Flushed {
		t.Errorf("wrote %q (flushed %v)", got, w.Flushed)
	}
	if h := w.Header(); h.Get("Content-Type") != "text/event-stream" || h.Get("x-request-id") == "" || w.Code != 200 {
		t.Errorf("headers %v, status %d", h, w.Code)
	}
	cancel()
	if err := st.Sleep(time.Hour); err == nil {
		t.Error("Sleep outlived the client")
	}
	if err := st.Send("ping", 2); err == nil {
		t.Error("Send after the client left succeeded")
	}
}
