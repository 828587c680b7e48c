package peer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"lab/internal/conv"
)

// The hub's ids for a peer's things. The same rule as the relay's JSON
// rewrite (rewrite.go): id, run_id and session_id get the peer's prefix,
// machine becomes the peer's name here.

func prefixRun(peer string, r *conv.Run) {
	r.ID, r.SessionID, r.Machine = Join(peer, r.ID), joinSome(peer, r.SessionID), peer
}

func prefixSession(peer string, s *conv.Session) {
	s.ID, s.RunID, s.Machine = Join(peer, s.ID), joinSome(peer, s.RunID), peer
}

func prefixExternal(peer string, e *conv.ExternalSession) {
	e.SessionID, e.RunID, e.Machine = joinSome(peer, e.SessionID), joinSome(peer, e.RunID), peer
}

func joinSome(peer, id string) string {
	if id == "" {
		return ""
	}
	return Join(peer, id)
}

// peerRuns asks r for its own runs (archived ones when archived), ids
// prefixed; the live list is remembered for when r cannot be reached.
func (h *Hub) peerRuns(ctx context.Context, r *remote, archived bool) ([]conv.Run, error) {
	q := url.Values{}
	if archived {
		q.Set("archived", "true")
	}
	var list struct {
		Runs []conv.Run `json:"runs"`
	}
	if err := h.call(ctx, r, http.MethodGet, "/api/v1/runs", q, nil, &list); err != nil {
		return nil, err
	}
	out := make([]conv.Run, 0, len(list.Runs))
	for _, run := range list.Runs {
		if relayed(run.ID) {
			continue
		}
		prefixRun(r.name, &run)
		out = append(out, run)
	}
	if !archived {
		r.remember(out)
	}
	return out, nil
}

// eachReachable runs fn for every peer not known to be down, in parallel,
// each under ListTimeout, and waits for them all.
func (h *Hub) eachReachable(ctx context.Context, fn func(ctx context.Context, r *remote)) {
	var wg sync.WaitGroup
	for _, r := range h.all() {
		if r.reach.down() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(ctx, h.cfg.ListTimeout)
			defer cancel()
			fn(ctx, r)
		}()
	}
	wg.Wait()
}

// Runs gathers every peer's runs (the archived ones when archived), each
// peer's own order kept, peers by name. A peer that cannot be reached,
// or is slower than ListTimeout, is shown by the last runs it listed
// (none for the archived list); the machines say which cannot be
// reached (a slow one is not marked down: its stream says whether it is).
func (h *Hub) Runs(ctx context.Context, archived bool) ([]conv.Run, []conv.Machine) {
	var mu sync.Mutex
	live := map[string][]conv.Run{}
	h.eachReachable(ctx, func(ctx context.Context, r *remote) {
		if runs, err := h.peerRuns(ctx, r, archived); err == nil {
			mu.Lock()
			live[r.name] = runs
			mu.Unlock()
		}
	})
	var out []conv.Run
	for _, r := range h.all() {
		if runs, ok := live[r.name]; ok {
			out = append(out, runs...)
		} else if !archived {
			out = append(out, r.cached()...)
		}
	}
	return out, h.Machines()
}

// Sessions gathers the first n history sessions matching q of every
// peer it can reach (pages of at most maxPage), ids prefixed, with the
// total each peer counted.
func (h *Hub) Sessions(ctx context.Context, q string, n int) ([]conv.Session, int, []conv.Machine) {
	var mu sync.Mutex
	var out []conv.Session
	total := 0
	h.eachReachable(ctx, func(ctx context.Context, r *remote) {
		got, t, err := h.peerSessions(ctx, r, q, n)
		if err != nil {
			return
		}
		mu.Lock()
		out, total = append(out, got...), total+t
		mu.Unlock()
	})
	return out, total, h.Machines()
}

// maxPage is the largest page a lab's session list serves.
const maxPage = 500

func (h *Hub) peerSessions(ctx context.Context, r *remote, q string, n int) ([]conv.Session, int, error) {
	var out []conv.Session
	total := 0
	for len(out) < n {
		var page struct {
			Sessions []conv.Session `json:"sessions"`
			Total    int            `json:"total"`
			HasMore  bool           `json:"has_more"`
		}
		v := url.Values{"limit": {strconv.Itoa(min(n-len(out), maxPage))}, "offset": {strconv.Itoa(len(out))}}
		if q != "" {
			v.Set("q", q)
		}
		if err := h.call(ctx, r, http.MethodGet, "/api/v1/sessions", v, nil, &page); err != nil {
			return nil, 0, err
		}
		total = page.Total
		for _, s := range page.Sessions {
			prefixSession(r.name, &s)
			out = append(out, s)
		}
		if !page.HasMore || len(page.Sessions) == 0 {
			break
		}
	}
	return out, total, nil
}

// External gathers the CLI processes every reachable peer could attach
// to.
func (h *Hub) External(ctx context.Context) ([]conv.ExternalSession, []conv.Machine) {
	var mu sync.Mutex
	got := map[string][]conv.ExternalSession{}
	h.eachReachable(ctx, func(ctx context.Context, r *remote) {
		var list struct {
			Sessions []conv.ExternalSession `json:"sessions"`
		}
		if h.call(ctx, r, http.MethodGet, "/api/v1/external-sessions", nil, nil, &list) != nil {
			return
		}
		for i := range list.Sessions {
			prefixExternal(r.name, &list.Sessions[i])
		}
		mu.Lock()
		got[r.name] = list.Sessions
		mu.Unlock()
	})
	var out []conv.ExternalSession
	for _, r := range h.all() {
		out = append(out, got[r.name]...)
	}
	return out, h.Machines()
}

// Bulk asks peer to act on some of its runs (path is the bulk endpoint,
// "/api/v1/runs/archive" say; ids are the hub's), and returns what it did
// in the hub's ids. The peer's refusal keeps its kind and message.
func (h *Hub) Bulk(ctx context.Context, peer, path string, ids []string) (conv.BulkResult, error) {
	r := h.remote(peer)
	if r == nil {
		return conv.BulkResult{}, conv.Errorf(conv.ENotFound, "no machine named %q", peer)
	}
	own := make([]string, len(ids))
	for i, id := range ids {
		own[i] = strip(peer, id)
	}
	var res conv.BulkResult
	if err := h.call(ctx, r, http.MethodPost, path, nil, map[string]any{"ids": own}, &res); err != nil {
		return conv.BulkResult{}, asConv(peer, err)
	}
	for i, id := range res.Done {
		res.Done[i] = Join(peer, id)
	}
	for i := range res.Skipped {
		res.Skipped[i].ID = Join(peer, res.Skipped[i].ID)
	}
	return res, nil
}
