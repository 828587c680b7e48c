package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
)

// Sessions is the read-only history of every transcript on the machine.
// Errors as for Runs: ENotFound for an unknown session id.
type Sessions interface {
	// List returns sessions newest first (by mtime), filtered by q.Query
	// and windowed by q.Offset and q.Limit.
	List(ctx context.Context, q SessionQuery) (SessionList, error)
	// Get returns one session as List describes it.
	Get(ctx context.Context, id string) (conv.Session, error)
	// Messages returns a window of a session's chat stream.
	Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error)
}

// SessionQuery selects a page of the history.
type SessionQuery struct {
	Query  string // matches the title or project path (a substring) or the conversation's words (see chat.Index); empty matches all
	Limit  int    // 1..MaxLimit
	Offset int    // sessions to skip
}

// SessionList is one page of the history and the body of GET
// /api/v1/sessions.
type SessionList struct {
	Sessions []conv.Session `json:"sessions"`
	Total    int            `json:"total"`    // sessions matching the query, over all pages
	HasMore  bool           `json:"has_more"` // sessions exist past this page
	// Machines are the machines searched (this lab, then its peers with
	// their reachability: an unreachable one's sessions are missing).
	Machines []conv.Machine `json:"machines,omitempty"`
}

// maxQueryLen bounds the search text; titles are first prompts, so longer
// needles are not useful.
const maxQueryLen = 200

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	raw := v.Get("q")
	if !utf8.ValidString(raw) {
		return conv.Errorf(conv.EInvalid, "q is not valid UTF-8")
	}
	if i := strings.IndexFunc(raw, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(raw[i:])
		return conv.Errorf(conv.EInvalid, "q contains the control character %U", r)
	}
	q := SessionQuery{Query: strings.TrimSpace(raw)}
	if utf8.RuneCountInString(q.Query) > maxQueryLen {
		return conv.Errorf(conv.EInvalid, "q: want at most %d characters", maxQueryLen)
	}
	var err error
	if q.Limit, err = limitParam(v); err != nil {
		return err
	}
	if q.Offset, err = intParam(v, "offset", 0, 0); err != nil {
		return err
	}
	list, err := s.sessionsAcross(r, q)
	if err != nil {
		return err
	}
	if list.Sessions == nil {
		list.Sessions = []conv.Session{}
	}
	writeJSON(w, http.StatusOK, list)
	return nil
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) error {
	sess, err := s.cfg.Sessions.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	sess.Machine = s.cfg.Machine
	writeJSON(w, http.StatusOK, sess)
	return nil
}

func (s *Server) sessionMessages(w http.ResponseWriter, r *http.Request) error {
	q, err := windowQuery(r.URL.Query())
	if err != nil {
		return err
	}
	page, err := s.cfg.Sessions.Messages(r.Context(), r.PathValue("id"), q)
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// sessionsAcross is one page of every machine's history, newest first:
// the first offset+limit sessions of each machine merged by time, then
// the page cut from them. A lab without peers (or a hub's relay token)
// pages its own.
func (s *Server) sessionsAcross(r *http.Request, q SessionQuery) (SessionList, error) {
	ps := s.peersFor(r)
	if ps == nil {
		list, err := s.cfg.Sessions.List(r.Context(), q)
		for i := range list.Sessions {
			list.Sessions[i].Machine = s.cfg.Machine
		}
		list.Machines = []conv.Machine{s.localMachine()}
		return list, err
	}
	need := q.Offset + q.Limit
	mine, err := s.cfg.Sessions.List(r.Context(), SessionQuery{Query: q.Query, Limit: need})
	if err != nil {
		return SessionList{}, err
	}
	for i := range mine.Sessions {
		mine.Sessions[i].Machine = s.cfg.Machine
	}
	theirs, total, machines := ps.Sessions(r.Context(), q.Query, need)
	all := append(mine.Sessions, theirs...)
	slices.SortStableFunc(all, func(a, b conv.Session) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := SessionList{Total: mine.Total + total, Machines: append([]conv.Machine{s.localMachine()}, machines...)}
	if q.Offset < len(all) {
		out.Sessions = all[q.Offset:min(len(all), need)]
	}
	out.HasMore = q.Offset+len(out.Sessions) < out.Total
	return out, nil
}
