package peer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"strconv"
	"time"

	"lab/internal/conv"
)

// Headers a relayed request and its answer keep; everything else (the
// operator's cookie, the CSRF header, Origin, Referer, forwarding
// headers, whatever a peer would set on the hub's origin) stays behind.
// Connection and Upgrade of an upgrade are the proxy's own business.
var (
	requestHeaders = []string{
		"Accept", "Content-Type", "Last-Event-ID", "Range", "If-None-Match", "If-Modified-Since", "Idempotency-Key",
		"Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions",
	}
	responseHeaders = []string{
		"Content-Type", "Content-Length", "Content-Disposition", "Content-Range", "Accept-Ranges",
		"Retry-After", "Allow", "Cache-Control", "ETag", "Last-Modified", "X-Accel-Buffering", "Idempotent-Replayed",
		"Connection", "Upgrade", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions",
	}
)

// Relay forwards r to peer as the request at path ("/api/v1/runs/<its
// own id>/..."), with r's method, query and body (streamed; the caller
// caps it) and the peer's token, and writes the peer's answer back: its
// status, the headers above, and its body — JSON rewritten by the rule in
// rewrite.go, anything else (an event stream, a file) streamed through
// unbuffered. An upgrade (a WebSocket) is passed through both ways.
//
// The error is for the caller to write when nothing was written yet:
// conv.ENotFound for an unknown peer, conv.EUnavailable when the peer
// cannot be reached or refuses the hub's token (never a 401, which would
// send the hub's own client to its login), conv.ETooLarge for a body over
// the cap. A peer's own error answers are passed on as they are.
func (h *Hub) Relay(w http.ResponseWriter, r *http.Request, peer, path string) error {
	rem := h.remote(peer)
	if rem == nil {
		return conv.Errorf(conv.ENotFound, "no machine named %q", peer)
	}
	// A relayed stream ends when the hub closes (lab shutting down), as
	// its own event streams do.
	h.mu.Lock()
	life := h.ctx
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(life, cancel)()
	r = r.WithContext(ctx)
	var failure error
	p := &httputil.ReverseProxy{
		Transport: h.cfg.Transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = rem.url(path, nil)
			pr.Out.URL.RawQuery = pr.In.URL.RawQuery
			pr.Out.Host = ""
			hd := http.Header{}
			for _, k := range requestHeaders {
				if v, ok := pr.In.Header[http.CanonicalHeaderKey(k)]; ok {
					hd[http.CanonicalHeaderKey(k)] = v
				}
			}
			for _, k := range []string{"Connection", "Upgrade"} {
				if v, ok := pr.Out.Header[k]; ok {
					hd[k] = v
				}
			}
			hd.Set("Authorization", "Bearer "+rem.token)
			pr.Out.Header = hd
		},
		ModifyResponse: func(res *http.Response) error {
			if res.StatusCode == http.StatusUnauthorized {
				raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
				res.Body.Close()
				return &peerError{peer: peer, status: res.StatusCode, msg: errorMessage(res, raw)}
			}
			h.reached(rem)
			keep := http.Header{}
			for _, k := range responseHeaders {
				if v, ok := res.Header[http.CanonicalHeaderKey(k)]; ok {
					keep[http.CanonicalHeaderKey(k)] = v
				}
			}
			res.Header = keep
			if isJSON(res.Header.Get("Content-Type")) && res.StatusCode != http.StatusSwitchingProtocols {
				return rewriteBody(res, peer)
			}
			return nil
		},
		ErrorHandler: func(_ http.ResponseWriter, _ *http.Request, err error) {
			failure = err
		},
		// The proxy flushes event streams and other answers of unknown
		// length (a log, a terminal) as they come, on its own.
	}
	p.ServeHTTP(&streamWriter{ResponseWriter: w, timeout: h.cfg.WriteTimeout}, r)
	if failure == nil {
		return nil
	}
	var tooBig *http.MaxBytesError
	var pe *peerError
	switch {
	case errors.As(failure, &tooBig):
		return conv.Wrap(conv.ETooLarge, failure, "request body is larger than "+strconv.FormatInt(tooBig.Limit, 10)+" bytes")
	case errors.As(failure, &pe):
		h.failed(rem, failure)
		return asConv(peer, failure)
	case r.Context().Err() != nil:
		return context.Canceled
	}
	h.failed(rem, failure)
	return asConv(peer, failure)
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// rewriteBody reads a JSON answer whole and puts back the rewritten one.
func rewriteBody(res *http.Response, peer string) error {
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	res.Body.Close()
	if err != nil {
		return err
	}
	if len(raw) > maxAnswer {
		return errors.New("the answer is larger than the relay reads")
	}
	out := rewriteIDs(raw, peer)
	res.Body = io.NopCloser(bytes.NewReader(out))
	res.ContentLength = int64(len(out))
	res.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}

// streamWriter moves the write deadline before each write of an event
// stream, as the hub's own stream does: the server's WriteTimeout is for
// ordinary answers, and a relayed stream lives for as long as its client
// watches. Unwrap lets the proxy flush and hijack through it.
type streamWriter struct {
	http.ResponseWriter
	timeout time.Duration
	stream  bool
}

func (w *streamWriter) WriteHeader(code int) {
	if mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type")); mt == "text/event-stream" {
		w.stream = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *streamWriter) Write(b []byte) (int, error) {
	if w.stream {
		http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(w.timeout))
	}
	return w.ResponseWriter.Write(b)
}

func (w *streamWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
