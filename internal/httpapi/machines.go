package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"lab/internal/conv"
	"lab/internal/store"
)

// Peers are the other labs this one shows and steers the runs of (it is
// their hub). A peer's run or session is served here as "<peer>~<id>"
// (conv.MachineSep). Implemented by internal/peer.
type Peers interface {
	// Has reports whether name is a peer.
	Has(name string) bool
	// Machines describes every peer and whether it can be reached.
	Machines() []conv.Machine
	// Relay forwards r to peer as the request at path (the peer's own
	// ids), answer and all; its error is for the caller to write when
	// nothing was written (ENotFound, EUnavailable, ETooLarge).
	Relay(w http.ResponseWriter, r *http.Request, peer, path string) error
	// Runs gathers the peers' runs (archived ones when archived); a peer
	// that cannot be reached is shown by its last known runs.
	Runs(ctx context.Context, archived bool) ([]conv.Run, []conv.Machine)
	// Sessions gathers the first n history sessions matching q of each
	// peer, and how many match in all.
	Sessions(ctx context.Context, q string, n int) ([]conv.Session, int, []conv.Machine)
	// External gathers the CLI processes each peer could attach to.
	External(ctx context.Context) ([]conv.ExternalSession, []conv.Machine)
	// Bulk forwards a bulk action on some of peer's runs to its endpoint
	// at path.
	Bulk(ctx context.Context, peer, path string, ids []string) (conv.BulkResult, error)
	// Add checks and stores a peer; Remove forgets one.
	Add(ctx context.Context, p store.Peer) (conv.Machine, error)
	Remove(ctx context.Context, name string) error
}

// relayPattern labels relayed requests in metrics and logs (r.Pattern),
// as a mux pattern would; a relay token may not use it (scope.go).
const relayPattern = "RELAY /api/v1/{runs|sessions}/{machine~id}/..."

// listPaths are the GET lists a machine= parameter sends to one machine.
var listPaths = map[string]bool{
	"/api/v1/runs": true, "/api/v1/sessions": true, "/api/v1/external-sessions": true,
	"/api/v1/providers": true, "/api/v1/folders": true, "/api/v1/demo/scenarios": true,
}

type relayKey struct{}

// relayTarget is where a relayed request goes: the peer and the path in
// its own ids.
type relayTarget struct {
	peer, path string
	// list says a list asked of one machine: query, its query without
	// machine=, replaces the request's.
	list  bool
	query string
	set   bool
}

// machines sends what belongs to a peer to the relay before the mux sees
// it: any request under a peer's run or session ("/api/v1/runs/<peer>~<id>
// /…", "/api/v1/sessions/<peer>~<id>/…", whatever the endpoint, so ones
// added later are relayed too), and the lists asked of one peer with
// machine=<peer>. Everything else, and everything on a lab without peers,
// goes to next.
func (s *Server) machines(next http.Handler) http.Handler {
	if s.cfg.Peers == nil {
		return next
	}
	relay := s.api(s.authed(s.relay))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := s.relayTargetOf(r)
		if !t.set {
			next.ServeHTTP(w, r)
			return
		}
		r.Pattern = relayPattern
		relay.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), relayKey{}, t)))
	})
}

func (s *Server) relayTargetOf(r *http.Request) relayTarget {
	for _, kind := range []string{"/api/v1/runs/", "/api/v1/sessions/"} {
		rest, ok := strings.CutPrefix(r.URL.EscapedPath(), kind)
		if !ok {
			continue
		}
		seg, tail, _ := strings.Cut(rest, "/")
		id, err := url.PathUnescape(seg)
		if err != nil {
			return relayTarget{}
		}
		peer, own, ok := strings.Cut(id, conv.MachineSep)
		if !ok || own == "" {
			return relayTarget{}
		}
		path := kind + url.PathEscape(own)
		if tail != "" || strings.HasSuffix(rest, "/") {
			path += "/" + tail
		}
		return relayTarget{peer: peer, path: path, set: true}
	}
	if m := r.URL.Query().Get("machine"); m != "" && m != s.cfg.Machine && r.Method == http.MethodGet && listPaths[r.URL.Path] {
		q := r.URL.Query()
		q.Del("machine")
		return relayTarget{peer: m, path: r.URL.Path, list: true, query: q.Encode(), set: true}
	}
	return relayTarget{}
}

// relay forwards a request the dispatch above marked. A relay token (a
// hub asking) reaches only this lab's own runs: no chains, no loops.
func (s *Server) relay(w http.ResponseWriter, r *http.Request) error {
	if isRelayToken(r) {
		return conv.Errorf(conv.EForbidden, "a relay token reaches only this machine's own runs")
	}
	t, _ := r.Context().Value(relayKey{}).(relayTarget)
	if !s.cfg.Peers.Has(t.peer) {
		return conv.Errorf(conv.ENotFound, "no machine named %q", t.peer)
	}
	if t.list {
		r.URL.RawQuery = t.query
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	return s.cfg.Peers.Relay(w, r, t.peer, t.path)
}

// relayBody forwards r to peer at path with body (re-encoded: the hub's
// own fields, machine, taken out) instead of r's.
func (s *Server) relayBody(w http.ResponseWriter, r *http.Request, peer, path string, body any) error {
	ps := s.peersFor(r)
	if ps == nil || !ps.Has(peer) {
		return conv.Errorf(conv.EInvalid, "machine %q: no such machine here (this lab is %q)", peer, s.cfg.Machine)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	r2 := r.Clone(r.Context())
	r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	r2.Header.Set("Content-Type", "application/json")
	return ps.Relay(w, r2, peer, path)
}

// elsewhere reports whether machine names another machine than this one.
func (s *Server) elsewhere(machine string) bool { return machine != "" && machine != s.cfg.Machine }

// peersFor returns the peers whose lists a request merges: none for a
// relay token (a hub asking for this lab's own), for machine=<this lab>,
// or when this lab has no peers.
func (s *Server) peersFor(r *http.Request) Peers {
	if s.cfg.Peers == nil || isRelayToken(r) || r.URL.Query().Get("machine") != "" {
		return nil
	}
	return s.cfg.Peers
}

func isRelayToken(r *http.Request) bool {
	p := principalFrom(r.Context())
	return p != nil && p.token != nil && p.token.Scope == store.ScopeRelay
}

// localMachine describes this lab in a list of machines.
func (s *Server) localMachine() conv.Machine {
	return conv.Machine{Name: s.cfg.Machine, Local: true, Status: conv.MachineOK}
}

// Local runs, sessions and processes carry this lab's name.

func (s *Server) stampRuns(runs []conv.Run) []conv.Run {
	for i := range runs {
		runs[i].Machine = s.cfg.Machine
	}
	return runs
}

func (s *Server) stampRun(r conv.Run) conv.Run {
	r.Machine = s.cfg.Machine
	return r
}

// splitIDs sorts ids by machine: this lab's, and each peer's (keys are
// peer names; ids keep their prefix).
func (s *Server) splitIDs(r *http.Request, ids []string) (local []string, peers map[string][]string) {
	ps := s.peersFor(r)
	peers = map[string][]string{}
	for _, id := range ids {
		if m, _, ok := strings.Cut(id, conv.MachineSep); ok && ps != nil && ps.Has(m) {
			peers[m] = append(peers[m], id)
			continue
		}
		local = append(local, id)
	}
	return local, peers
}

// bulkAcross runs a bulk action on runs of any machine: this lab's with
// local, each peer's forwarded to its endpoint at path. A peer that fails
// leaves its runs skipped with the reason; the action never fails as a
// whole for one machine's sake.
func (s *Server) bulkAcross(r *http.Request, ids []string, path string, local func([]string) (conv.BulkResult, error)) (conv.BulkResult, error) {
	mine, theirs := s.splitIDs(r, ids)
	out := conv.BulkResult{Done: []string{}, Skipped: []conv.Skipped{}}
	if len(mine) > 0 || len(theirs) == 0 {
		res, err := local(mine)
		if err != nil {
			return conv.BulkResult{}, err
		}
		out.Done, out.Skipped = append(out.Done, res.Done...), append(out.Skipped, res.Skipped...)
	}
	for peer, pids := range theirs {
		res, err := s.cfg.Peers.Bulk(r.Context(), peer, path, pids)
		if err != nil {
			for _, id := range pids {
				out.Skipped = append(out.Skipped, conv.Skipped{ID: id, Reason: conv.MessageOf(err)})
			}
			continue
		}
		out.Done, out.Skipped = append(out.Done, res.Done...), append(out.Skipped, res.Skipped...)
	}
	return out, nil
}

// PeerList is the body of GET /api/v1/peers: this lab's name and its
// peers with their reachability. Tokens are never served.
type PeerList struct {
	Machine string         `json:"machine"`
	Peers   []conv.Machine `json:"peers"`
}

// PeerRequest is the body of POST /api/v1/peers.
type PeerRequest struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Token string `json:"token"`
	// AllowHTTP allows plain http to a host that is not loopback.
	AllowHTTP bool `json:"allow_http,omitempty"`
}

func (s *Server) peers() (Peers, error) {
	if s.cfg.Peers == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server does not relay for other labs")
	}
	return s.cfg.Peers, nil
}

func (s *Server) listPeers(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.peers()
	if err != nil {
		return err
	}
	list := ps.Machines()
	if list == nil {
		list = []conv.Machine{}
	}
	writeJSON(w, http.StatusOK, PeerList{Machine: s.cfg.Machine, Peers: list})
	return nil
}

func (s *Server) addPeer(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.peers()
	if err != nil {
		return err
	}
	var req PeerRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if req.Name == s.cfg.Machine {
		return conv.Errorf(conv.EInvalid, "%q is this lab's own name: give the peer another", req.Name)
	}
	m, err := ps.Add(r.Context(), store.Peer{Name: req.Name, URL: req.URL, Token: strings.TrimSpace(req.Token), AllowHTTP: req.AllowHTTP})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, m)
	return nil
}

func (s *Server) removePeer(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.peers()
	if err != nil {
		return err
	}
	if err := ps.Remove(r.Context(), r.PathValue("name")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
