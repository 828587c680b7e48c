// Package fakecodexapi is a scripted stand-in for the OpenAI Responses API
// (POST /v1/responses, streamed as server-sent events), served on loopback
// or on any listener (a private network namespace, see package netns). The
// real Codex CLI, configured with a custom model provider whose base_url
// points here, gets streamed replies from named scenarios picked by a
// "lab:<name>" keyword in the prompt (see Scenarios), so tests and the
// demo can drive commands, approvals, file edits, questions, plans and
// interrupts without a network or an API key. It records every request so
// tests can assert on what the CLI sent back (tool outputs above all).
//
// Scenarios by prompt keyword (a prompt without one gets lab:text):
//
//	lab:text        a short text reply echoing the prompt
//	lab:slow        long text streamed a word per Options.ChunkDelay (interrupt it)
//	lab:think       a reasoning summary, then text
//	lab:bash        exec_command `echo lab-bash-ok` (runs in the sandbox), then the output echoed
//	lab:permission  exec_command asking for escalation: an approval prompt
//	lab:edit        apply_patch adding a file outside the workspace: an approval prompt
//	lab:todo        update_plan with three steps
//	lab:single      request_user_input, one question
//	lab:form        request_user_input, two questions
//	lab:plan        a <proposed_plan> block (in Plan mode the CLI then asks "Implement this plan?")
//
// After any tool output the scenario's next turn is a text reply
// "tool output for <tool>: <output>", so what the CLI recorded is visible in
// the chat. The title request the CLI sends with the first turn (a request
// asking for structured JSON output) gets a title and never consumes a
// scenario step.
//
// It is test and demo machinery: nothing on lab's production paths imports
// it.
package fakecodexapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options tune the server. The zero value is usable.
type Options struct {
	// ChunkDelay is the pause between words of the slow scenario
	// (default 100ms).
	ChunkDelay time.Duration
	// SlowChunks is how many words the slow scenario streams (default 100).
	SlowChunks int
	// Logger receives a line per request (default: discard).
	Logger *slog.Logger
}

// Server is the scripted API. It is an http.Handler; Start and Serve also
// serve it on a listener of its own.
type Server struct {
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	reqs    []Request
	changed chan struct{} // closed and replaced whenever reqs grows
	nextID  int
	salt    string // random per server, so ids stay unique across restarts

	ln  net.Listener
	srv *http.Server
}

// New returns a server with opts applied.
func New(opts Options) *Server {
	if opts.ChunkDelay <= 0 {
		opts.ChunkDelay = 100 * time.Millisecond
	}
	if opts.SlowChunks <= 0 {
		opts.SlowChunks = 100
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, log: log, changed: make(chan struct{}), salt: randomAlnum(6)}
}

// Start serves on addr (e.g. "127.0.0.1:0") until Close.
func (s *Server) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("fakecodexapi: listen %s: %w", addr, err)
	}
	return s.Serve(ln)
}

// Serve serves on ln (which it owns from now on) until Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.srv != nil {
		s.mu.Unlock()
		ln.Close()
		return errors.New("fakecodexapi: already serving")
	}
	s.ln = ln
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	srv := s.srv
	s.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("fakecodexapi: serve", "err", err)
		}
	}()
	return nil
}

// URL is the server's base URL ("http://127.0.0.1:PORT"), or "" before
// Start. The CLI's provider base_url is URL()+"/v1".
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String()
}

// Close stops serving, cutting open streams.
func (s *Server) Close() error {
	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}

// Requests returns a copy of every request received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Wait returns the first request, received before or after the call, for
// which match returns true; it gives up when ctx ends.
func (s *Server) Wait(ctx context.Context, match func(Request) bool) (Request, error) {
	seen := 0
	for {
		s.mu.Lock()
		reqs, changed := s.reqs[seen:], s.changed
		seen = len(s.reqs)
		s.mu.Unlock()
		for _, r := range reqs {
			if match(r) {
				return r, nil
			}
		}
		select {
		case <-ctx.Done():
			return Request{}, fmt.Errorf("fakecodexapi: no matching request: %w", ctx.Err())
		case <-changed:
		}
	}
}

// record appends r, numbering it, and wakes waiters.
func (s *Server) record(r *Request) {
	s.mu.Lock()
	r.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, *r)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// id returns a fresh identifier with prefix, unique within the server and
// shaped like the real API's (a prefix and 24 alphanumerics).
func (s *Server) id(prefix string) string {
	s.mu.Lock()
	s.nextID++
	n := s.nextID
	s.mu.Unlock()
	return fmt.Sprintf("%s01%s%016d", prefix, s.salt, n)
}

func randomAlnum(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b)
}

// maxBody bounds a request body; the CLI's requests carry the whole
// conversation, its instructions and tool schemas: tens of KB in tests.
const maxBody = 64 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Kind: KindOther}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		// Nothing else was seen on 0.171.0; an empty object keeps a probe
		// quiet and the log shows what it asked for.
		s.record(&req)
		s.log.Info("fakecodexapi: unknown endpoint", "method", r.Method, "path", r.URL.Path)
		writeJSON(w, http.StatusOK, map[string]any{})
		return
	}
	if err := parseResponses(&req, body); err != nil {
		s.record(&req)
		s.log.Warn("fakecodexapi: bad responses body", "err", err)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": err.Error()}})
		return
	}
	s.answer(w, r, &req)
}

// answer plays the next turn of the scenario the request's prompt picks.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *Request) {
	var t turn
	if req.Kind == KindTitle {
		// The title request wants JSON matching a schema; it is a side
		// request and must not move the scenario on.
		t = turn{text(`{"title":"Scripted session"}`)}
	} else {
		sc := pickScenario(req.Prompt)
		req.Scenario = sc.Name
		turns := sc.turns(&call{req: req, opts: &s.opts})
		if step := req.StepsSincePrompt; step < len(turns) {
			t = turns[step]
		} else {
			t = turn{text("Done.")}
		}
	}
	s.record(req)
	s.log.Info("fakecodexapi: responses", "seq", req.Seq, "kind", req.Kind, "scenario", req.Scenario, "model", req.Model)
	resp := s.materialize(t)
	if !req.Stream {
		writeJSON(w, http.StatusOK, resp.object("completed", req.Model))
		return
	}
	st := newStream(w, r.Context())
	if err := resp.stream(st, req.Model, s.opts.ChunkDelay); err != nil {
		s.log.Info("fakecodexapi: stream ended early", "seq", req.Seq, "err", err)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
