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
//	lab:write       apply_patch adding lab-write.txt in the workspace (no approval)
//	lab:change      apply_patch changing "hello" in the workspace's lab-edit.txt
//	lab:todo        update_plan with three steps
//	lab:single      request_user_input, one question
//	lab:form        request_user_input, two questions
//	lab:plan        a <proposed_plan> block (in Plan mode the CLI then asks "Implement this plan?")
//	lab:read        exec_command `cat` of the file the prompt hands over ([Attached file: …]), then its output echoed
//	lab:full        a short text reply reporting a context 85% full (FullUsage)
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
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"

	"lab/internal/fakeapi"
)

// Options tune the server (see fakeapi.Options). The zero value is
// usable.
type Options = fakeapi.Options

// Server is the scripted API. It is an http.Handler; Start and Serve also
// serve it on a listener of its own, whose URL()+"/v1" is the CLI's
// provider base_url. fakeapi.Base records its requests (Requests, Wait)
// and makes its ids.
type Server struct {
	fakeapi.Base[Request]
}

// New returns a server with opts applied.
func New(opts Options) *Server {
	return &Server{Base: fakeapi.NewBase[Request]("fakecodexapi", opts)}
}

// Start serves on addr (e.g. "127.0.0.1:0") until Close.
func (s *Server) Start(addr string) error { return s.Listen(addr, s) }

// Serve serves on ln (which it owns from now on) until Close.
func (s *Server) Serve(ln net.Listener) error { return s.ServeOn(ln, s) }

// record appends r, numbering it, and wakes waiters.
func (s *Server) record(r *Request) { fakeapi.Add(&s.Base, r) }

// maxBody bounds a request body; the CLI's requests carry the whole
// conversation, its instructions and tool schemas: tens of KB in tests.
const maxBody = 64 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Request: fakeapi.Received(r, KindOther)}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		// Nothing else was seen on 0.171.0; an empty object keeps a probe
		// quiet and the log shows what it asked for.
		s.record(&req)
		s.Log.Info("fakecodexapi: unknown endpoint", "method", r.Method, "path", r.URL.Path)
		writeJSON(w, http.StatusOK, map[string]any{})
		return
	}
	if err := parseResponses(&req, body); err != nil {
		s.record(&req)
		s.Log.Warn("fakecodexapi: bad responses body", "err", err)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": err.Error()}})
		return
	}
	s.answer(w, r, &req)
}

// answer plays the next turn of the scenario the request's prompt picks.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *Request) {
	var t turn
	switch req.Kind {
	case KindTitle:
		// The title request wants JSON matching a schema; it is a side
		// request and must not move the scenario on.
		t = turn{text(`{"title":"Scripted session"}`)}
	case KindCompact:
		t = compactTurn()
	default:
		sc := pickScenario(req.Prompt)
		req.Scenario = sc.Name
		turns := sc.turns(&call{req: req, opts: &s.Opts})
		if step := req.StepsSincePrompt; step < len(turns) {
			t = turns[step]
		} else {
			t = turn{text("Done.")}
		}
	}
	resp := s.materialize(t)
	resp.used = fakeapi.Usage{Input: 100, Output: resp.outputTokens()}
	if req.Scenario == "full" {
		resp.used.Input, resp.used.CacheRead = FullUsage.Input, FullUsage.CacheRead
	}
	req.Usage = resp.used
	s.record(req)
	s.Log.Info("fakecodexapi: responses", "seq", req.Seq, "kind", req.Kind, "scenario", req.Scenario, "model", req.Model)
	if !req.Stream {
		writeJSON(w, http.StatusOK, resp.object("completed", req.Model))
		return
	}
	st := newStream(w, r.Context())
	if err := resp.stream(st, req.Model, s.Opts.ChunkDelay); err != nil {
		s.Log.Info("fakecodexapi: stream ended early", "seq", req.Seq, "err", err)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
