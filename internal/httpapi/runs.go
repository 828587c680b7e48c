package httpapi

import (
	"context"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
)

// Runs is what the API needs of the run layer. Errors should be
// *conv.Error: ENotFound for an unknown run, EInvalid for bad input,
// EConflict when the run or its dialog changed under the caller (ended,
// dialog gone, answered elsewhere); anything else is a 500.
type Runs interface {
	// List returns every run, newest first.
	List(ctx context.Context) ([]conv.Run, error)
	// Get returns one run, with its usage.
	Get(ctx context.Context, id string) (conv.Run, error)
	// Start starts a run.
	Start(ctx context.Context, req conv.StartRequest) (conv.Run, error)
	// Stop ends a run's process.
	Stop(ctx context.Context, id string) error
	// Messages returns a window of the run's chat stream (the latest
	// window when q has no cursor), with the pending dialog beside it.
	Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error)
	// Reply sends text as the operator's next message, with the run's
	// uploads named by their ids (EInvalid for an unknown one).
	Reply(ctx context.Context, id, text string, uploads ...string) error
	// Interrupt stops the agent's current turn.
	Interrupt(ctx context.Context, id string) error
	// Answer answers the pending dialog a.ToolID names.
	Answer(ctx context.Context, id string, a conv.Answer) error
	// Seen records that a page shows the run's chat now (a finished turn
	// read since drops to attention "seen").
	Seen(ctx context.Context, id string) error
}

// RunList is the body of GET /api/v1/runs: every machine's runs, and the
// machines (this lab first, then its peers with their reachability).
type RunList struct {
	Runs     []conv.Run     `json:"runs"`
	Machines []conv.Machine `json:"machines"`
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) error {
	var runs []conv.Run
	var err error
	archived := false
	switch v := r.URL.Query().Get("archived"); v {
	case "", "false":
		runs, err = s.cfg.Runs.List(r.Context())
	case "true":
		archived = true
		hk, herr := s.housekeeping()
		if herr != nil {
			return herr
		}
		runs, err = hk.Archived(r.Context())
	default:
		return conv.Errorf(conv.EInvalid, "archived=%q: want true or false", v)
	}
	if err != nil {
		return err
	}
	runs = s.stampRuns(runs)
	machines := []conv.Machine{s.localMachine()}
	if ps := s.peersFor(r); ps != nil {
		theirs, ms := ps.Runs(r.Context(), archived)
		runs, machines = append(runs, theirs...), append(machines, ms...)
	}
	if runs == nil {
		runs = []conv.Run{}
	}
	writeJSON(w, http.StatusOK, RunList{runs, machines})
	return nil
}

func (s *Server) startRun(w http.ResponseWriter, r *http.Request) error {
	var req conv.StartRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Cwd) == "" {
		return conv.Errorf(conv.EInvalid, "cwd is required")
	}
	if err := checkTitle(req.Title); err != nil {
		return err
	}
	if err := checkUploadIDs(req.Uploads); err != nil {
		return err
	}
	if s.elsewhere(req.Machine) {
		if len(req.Uploads) > 0 {
			// Staged files live on this lab; the peer starts the run.
			return conv.Errorf(conv.EInvalid, "files for the first prompt of a run on %s cannot be sent through this lab: start the run, then attach them to a reply", req.Machine)
		}
		peer := req.Machine
		req.Machine, req.Resume = "", strings.TrimPrefix(req.Resume, peer+conv.MachineSep)
		return s.relayBody(w, r, peer, "/api/v1/runs", req)
	}
	run, err := s.cfg.Runs.Start(r.Context(), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.stampRun(run))
	return nil
}

// checkUploadIDs refuses a list of uploads no prompt takes: too many, or
// an id repeated.
func checkUploadIDs(ids []string) error {
	if len(ids) > maxUploadsPerPrompt {
		return conv.Errorf(conv.EInvalid, "%d uploads; a prompt takes at most %d", len(ids), maxUploadsPerPrompt)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return conv.Errorf(conv.EInvalid, "upload %s is listed twice", id)
		}
		seen[id] = true
	}
	return nil
}

// MaxTitleRunes bounds a run's title, as long as a history title can be:
// a heading, not a second prompt.
const MaxTitleRunes = 200

// checkTitle refuses a title too long to be one, or with a line break or
// another control character (it is shown on one line). conv.EInvalid.
func checkTitle(t string) error {
	if n := utf8.RuneCountInString(t); n > MaxTitleRunes {
		return conv.Errorf(conv.EInvalid, "title is %d characters long; at most %d are allowed", n, MaxTitleRunes)
	}
	for _, r := range t {
		if unicode.IsControl(r) {
			return conv.Errorf(conv.EInvalid, "title contains a control character (U+%04X); it must be one line", r)
		}
	}
	return nil
}

func (s *Server) stopRun(w http.ResponseWriter, r *http.Request) error {
	if err := s.cfg.Runs.Stop(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// Watcher is implemented by a run layer that reads more of a run while
// a client shows its chat (the words its CLI is drawing): a client's read
// of the messages says it does.
type Watcher interface {
	Watch(id string)
}

func (s *Server) runMessages(w http.ResponseWriter, r *http.Request) error {
	q, err := windowQuery(r.URL.Query())
	if err != nil {
		return err
	}
	if wr, ok := s.cfg.Runs.(Watcher); ok {
		wr.Watch(r.PathValue("id"))
	}
	page, err := s.cfg.Runs.Messages(r.Context(), r.PathValue("id"), q)
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// writePage serves a window; an empty one has "messages": [], not null.
func writePage(w http.ResponseWriter, p conv.Page) {
	if p.Messages == nil {
		p.Messages = []conv.Message{}
	}
	writeJSON(w, http.StatusOK, p)
}

type replyRequest struct {
	Text    string   `json:"text"`
	Uploads []string `json:"uploads"`
}

// maxUploadsPerPrompt bounds the files one prompt hands over.
const maxUploadsPerPrompt = 20

func (s *Server) reply(w http.ResponseWriter, r *http.Request) error {
	var req replyRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Text) == "" && len(req.Uploads) == 0 {
		return conv.Errorf(conv.EInvalid, "text is required (or uploads)")
	}
	if err := checkUploadIDs(req.Uploads); err != nil {
		return err
	}
	if err := s.cfg.Runs.Reply(r.Context(), r.PathValue("id"), req.Text, req.Uploads...); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) interrupt(w http.ResponseWriter, r *http.Request) error {
	if err := s.cfg.Runs.Interrupt(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) seen(w http.ResponseWriter, r *http.Request) error {
	if err := s.cfg.Runs.Seen(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) error {
	var a conv.Answer
	if err := s.decode(w, r, &a); err != nil {
		return err
	}
	if err := checkAnswerShape(a); err != nil {
		return err
	}
	if err := s.cfg.Runs.Answer(r.Context(), r.PathValue("id"), a); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// checkAnswerShape refuses answers no dialog could take. Whether it fits
// the pending dialog (question count, option range) is the run layer's
// check, made under its lock.
func checkAnswerShape(a conv.Answer) error {
	switch {
	case a.ToolID == "":
		return conv.Errorf(conv.EInvalid, "tool_id is required")
	case len(a.Answers) > 0 && a.Option != nil:
		return conv.Errorf(conv.EInvalid, "send answers for a question or option for a plan, not both")
	case len(a.Answers) == 0 && a.Option == nil:
		return conv.Errorf(conv.EInvalid, "send answers for a question or option for a plan")
	case a.Option != nil && *a.Option < 0:
		return conv.Errorf(conv.EInvalid, "option must be non-negative")
	case a.Option == nil && a.Feedback != "":
		return conv.Errorf(conv.EInvalid, "feedback goes with a plan option")
	}
	for i, qa := range a.Answers {
		if len(qa.Chosen) == 0 && qa.OtherText == "" {
			return conv.Errorf(conv.EInvalid, "answers[%d]: choose an option or give other_text", i)
		}
		for _, c := range qa.Chosen {
			if c < 0 {
				return conv.Errorf(conv.EInvalid, "answers[%d]: option indexes must be non-negative", i)
			}
		}
	}
	return nil
}

// ProviderList is the body of GET /api/v1/providers.
type ProviderList struct {
	Providers []conv.ProviderInfo `json:"providers"`
}

func (s *Server) listProviders(w http.ResponseWriter, r *http.Request) error {
	list := s.cfg.Providers
	if list == nil {
		list = []conv.ProviderInfo{}
	}
	writeJSON(w, http.StatusOK, ProviderList{list})
	return nil
}
