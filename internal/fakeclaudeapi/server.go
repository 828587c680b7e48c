// Package fakeclaudeapi is a scripted stand-in for the Anthropic Messages
// API, served on loopback. The real Claude Code CLI pointed at it with
// ANTHROPIC_BASE_URL gets streamed replies from named scenarios (picked by a
// "lab:<name>" keyword in the prompt, see Scenarios), so tests and `lab demo`
// can drive questions, plans, tool calls and interrupts without a network or
// an API key. It records every request so tests can assert on what the CLI
// sent back (tool results above all).
//
// Scenarios by prompt keyword (a prompt without one gets lab:text):
//
//	lab:text        a short text reply echoing the whole prompt
//	lab:slow        long text streamed a word per Options.ChunkDelay (interrupt it)
//	lab:think       a thinking block, then text
//	lab:bash        Bash `echo lab-bash-ok`, then the output echoed
//	lab:permission  Bash that creates a file: a permission prompt in --permission-mode manual
//	lab:single      AskUserQuestion, one single-select question
//	lab:multi       AskUserQuestion, one multi-select question
//	lab:form        AskUserQuestion, two questions (single, multi)
//	lab:form3       AskUserQuestion, three questions (single, multi, single)
//	lab:plan        Write the plan file the request names, then ExitPlanMode (--permission-mode plan)
//	lab:markdown    long markdown with code blocks and a table; in plan mode a long plan
//	lab:overloaded  every request answered 529 overloaded_error (the CLI retries ten times)
//	lab:apierror    every request answered 500 api_error
//	lab:flaky       the first two requests of a prompt answered 529, then text
//	lab:hangup      every request's connection closed without an answer
//	lab:read        Read of the file the prompt hands over ([Attached file: …]), then the content echoed
//	lab:full        a short text reply reporting a context 85% full (FullUsage)
//
// After any tool result the scenario's next turn is a text reply
// "tool_result for <tool>: <content>" ("tool_result (error) for …" when
// is_error), so the recorded answer is visible in the chat. Requests that
// offer no tools (the CLI's side requests) get a short plain text.
//
// It is test and demo machinery: nothing on lab's production paths imports
// it.
package fakeclaudeapi

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"lab/internal/fakeapi"
)

// Options tune the server (see fakeapi.Options). The zero value is
// usable.
type Options = fakeapi.Options

// Server is the scripted API. It is an http.Handler; Start also serves it
// on a listener of its own, whose URL is the base URL to put in
// ANTHROPIC_BASE_URL. fakeapi.Base records its requests (Requests, Wait)
// and makes its ids.
type Server struct {
	fakeapi.Base[Request]

	mu     sync.Mutex
	failed map[string]int // failed requests per prompt, for scenarios that fail
}

// New returns a server with opts applied.
func New(opts Options) *Server {
	return &Server{Base: fakeapi.NewBase[Request]("fakeclaudeapi", opts)}
}

// Start serves on addr (e.g. "127.0.0.1:0") until Close.
func (s *Server) Start(addr string) error { return s.Listen(addr, s) }

// record appends r, numbering it, and wakes waiters.
func (s *Server) record(r *Request) { fakeapi.Add(&s.Base, r) }

// maxBody bounds a request body; the CLI's requests carry the whole
// conversation and tool schemas, a few MB at most in tests.
const maxBody = 64 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Request: fakeapi.Received(r, "other")}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}

	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		req.Kind = "count_tokens"
		_ = parseMessages(&req, body)
		s.record(&req)
		writeJSON(w, map[string]any{"input_tokens": estimateTokens(body)})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		req.Kind = "messages"
		if err := parseMessages(&req, body); err != nil {
			s.record(&req)
			s.Log.Warn("fakeclaudeapi: bad messages body", "err", err)
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": err.Error()}})
			return
		}
		s.answer(w, r, &req, body)
	default:
		// The CLI probes a few endpoints besides messages; an empty object
		// keeps it quiet, and the log shows what it asked for.
		s.record(&req)
		s.Log.Info("fakeclaudeapi: unknown endpoint", "method", r.Method, "path", r.URL.Path)
		writeJSON(w, map[string]any{})
	}
}

// answer plays the next turn of the scenario the request's prompt picks.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *Request, body []byte) {
	var t turn
	switch {
	case isCompaction(req.UserText):
		// /compact (or an automatic compaction): the CLI asks for a
		// summary of the conversation in its own request.
		req.Scenario = ScenarioCompact
		t = compactTurn()
	case len(req.Tools) == 0:
		// Side requests (titles, summaries, classifiers) offer no tools; a
		// short text keeps them harmless and away from the scripts.
		req.Scenario = "side"
		t = turn{text("Scripted session")}
	default:
		sc := pickScenario(req.Prompt)
		req.Scenario = sc.Name
		if s.shouldFail(sc.fail, req.Prompt) {
			req.Failed = true
			s.record(req)
			s.Log.Info("fakeclaudeapi: failing", "seq", req.Seq, "scenario", req.Scenario, "status", sc.fail.status)
			sc.fail.answer(w)
			return
		}
		turns := sc.turns(&call{req: req, opts: &s.Opts})
		step := stepsSincePrompt(req.Messages)
		if step < len(turns) {
			t = turns[step]
		} else {
			t = turn{text("Done.")}
		}
	}
	m := s.materialize(t)
	req.Usage = fakeapi.Usage{Input: requestTokens(req, body), Output: m.outputTokens()}
	if req.Scenario == "full" {
		req.Usage.Input, req.Usage.CacheRead = FullUsage.Input, FullUsage.CacheRead
	}
	s.record(req)
	s.Log.Info("fakeclaudeapi: messages", "seq", req.Seq, "scenario", req.Scenario, "stream", req.Stream, "model", req.Model)
	model := req.Model
	if model == "" {
		model = "claude-scripted"
	}
	if !req.Stream {
		writeJSON(w, m.json(model, req.Usage))
		return
	}
	st := newStream(w, r.Context())
	if err := m.stream(st, model, req.Usage, s.Opts.ChunkDelay); err != nil {
		s.Log.Info("fakeclaudeapi: stream ended early", "seq", req.Seq, "err", err)
	}
}

func estimateTokens(body []byte) int { return len(body)/4 + 1 }

// imageTokens is what an image counts as, whatever its size: the real
// API scales images down to a few thousand tokens.
const imageTokens = 1600

// requestTokens estimates a messages request's input: its bytes, images
// counted as imageTokens each rather than by their base64.
func requestTokens(req *Request, body []byte) int {
	n := len(body)
	images := 0
	for _, m := range req.Messages {
		for _, b := range m.Images() {
			n -= base64.StdEncoding.EncodedLen(len(b.Data))
			images++
		}
	}
	return max(n, 0)/4 + 1 + images*imageTokens
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	writeJSONBody(w, v)
}

func writeJSONBody(w http.ResponseWriter, v any) { _ = json.NewEncoder(w).Encode(v) }
