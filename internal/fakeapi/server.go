// Package fakeapi is what the scripted model APIs (internal/fakeclaudeapi,
// internal/fakecodexapi) share: serving on a listener, recording every
// request and waking those who wait for one, fresh ids, server-sent
// events, the scenario table and picking a scenario by its keyword. Each
// fake API supplies its wire format and its scenarios.
//
//	server.go    Base: listen, serve, record, wait, ids, the options
//	request.go   what every recorded request says (Request), numbered
//	options.go   Options: the slow scenario's pace, the logger
//	scenario.go  a scenario's info, the table's listing and keyword pick
//	sse.go       SSE: events written and flushed one by one
//	text.go      the keyword match, text cut into stream chunks, a
//	             content value flattened to text
//
// It is test and demo machinery: nothing on lab's production paths
// imports it.
package fakeapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// Base is the serving and recording half of a scripted API, for a fake
// API's Server to embed: it serves the Server's handler on a listener of
// its own, keeps every request (of the fake's type R) in arrival order,
// and makes ids. Its methods are safe for concurrent use.
type Base[R any] struct {
	name string // the fake API's package name, for errors and logs
	// Opts are the server's options, defaults filled in; Log is their
	// logger.
	Opts Options
	Log  *slog.Logger

	mu      sync.Mutex
	reqs    []R
	changed chan struct{} // closed and replaced whenever reqs grows
	nextID  int
	salt    string // random per server, so ids stay unique across restarts
	ln      net.Listener
	srv     *http.Server
}

// NewBase returns a Base for the fake API name with opts (the zero value
// is usable).
func NewBase[R any](name string, opts Options) Base[R] {
	opts = opts.WithDefaults()
	return Base[R]{name: name, Opts: opts, Log: opts.Logger, changed: make(chan struct{}), salt: randomAlnum(6)}
}

// Listen serves h on addr (e.g. "127.0.0.1:0") until Close.
func (b *Base[R]) Listen(addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: listen %s: %w", b.name, addr, err)
	}
	return b.ServeOn(ln, h)
}

// ServeOn serves h on ln (which it owns from now on) until Close.
func (b *Base[R]) ServeOn(ln net.Listener, h http.Handler) error {
	b.mu.Lock()
	if b.srv != nil {
		b.mu.Unlock()
		ln.Close()
		return fmt.Errorf("%s: already serving", b.name)
	}
	b.ln = ln
	b.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	srv := b.srv
	b.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.Log.Error(b.name+": serve", "err", err)
		}
	}()
	return nil
}

// URL is the server's base URL ("http://127.0.0.1:PORT"), or "" before it
// serves.
func (b *Base[R]) URL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ln == nil {
		return ""
	}
	return "http://" + b.ln.Addr().String()
}

// Close stops serving, cutting open streams.
func (b *Base[R]) Close() error {
	b.mu.Lock()
	srv := b.srv
	b.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}

// Requests returns a copy of every request received so far, oldest first.
func (b *Base[R]) Requests() []R {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]R(nil), b.reqs...)
}

// Wait returns the first request, received before or after the call, for
// which match returns true; it gives up when ctx ends.
func (b *Base[R]) Wait(ctx context.Context, match func(R) bool) (R, error) {
	seen := 0
	for {
		b.mu.Lock()
		reqs, changed := b.reqs[seen:], b.changed
		seen = len(b.reqs)
		b.mu.Unlock()
		for _, r := range reqs {
			if match(r) {
				return r, nil
			}
		}
		select {
		case <-ctx.Done():
			var zero R
			return zero, fmt.Errorf("%s: no matching request: %w", b.name, ctx.Err())
		case <-changed:
		}
	}
}

// Record appends the request numbered returns for its arrival number (1
// for the first), and wakes waiters.
func (b *Base[R]) Record(numbered func(seq int) R) {
	b.mu.Lock()
	b.reqs = append(b.reqs, numbered(len(b.reqs)+1))
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// ID returns a fresh identifier with prefix, unique within the server and
// shaped like the real APIs' (a prefix and 24 alphanumerics).
func (b *Base[R]) ID(prefix string) string {
	b.mu.Lock()
	b.nextID++
	n := b.nextID
	b.mu.Unlock()
	return fmt.Sprintf("%s01%s%016d", prefix, b.salt, n)
}

func randomAlnum(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(s)
}
