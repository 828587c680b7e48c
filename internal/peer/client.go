package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// remote is one peer as the hub holds it: its address and token, its
// reachability, the last runs it listed, and its follower.
type remote struct {
	name      string
	base      *url.URL
	token     string
	allowHTTP bool
	addedAt   time.Time
	reach     *reach

	mu   sync.Mutex
	runs []conv.Run // the last list it answered, ids prefixed

	stop func()        // ends the follower
	done chan struct{} // closed when the follower has ended
}

func newRemote(p store.Peer) (*remote, error) {
	base, err := CheckURL(p.URL, p.AllowHTTP)
	if err != nil {
		return nil, err
	}
	return &remote{name: p.Name, base: base, token: p.Token, allowHTTP: p.AllowHTTP, addedAt: p.CreatedAt, reach: newReach()}, nil
}

// same reports whether p is what r was made from (a peer removed and
// added again with another URL or token is a new remote).
func (r *remote) same(p store.Peer) bool {
	u, err := CheckURL(p.URL, p.AllowHTTP)
	return err == nil && u.String() == r.base.String() && p.Token == r.token && p.AllowHTTP == r.allowHTTP
}

// url is the peer's address for an API path ("/api/v1/...").
func (r *remote) url(path string, q url.Values) *url.URL {
	u := *r.base
	u.Path = r.base.Path + path
	u.RawQuery = q.Encode()
	return &u
}

// machine describes the peer for the API.
func (r *remote) machine() conv.Machine {
	status, since, msg := r.reach.get()
	m := conv.Machine{Name: r.name, URL: r.base.String(), AllowHTTP: r.allowHTTP, Status: status, Error: msg}
	if !since.IsZero() {
		m.Since = &since
	}
	if !r.addedAt.IsZero() {
		t := r.addedAt
		m.AddedAt = &t
	}
	return m
}

// cached returns the last runs the peer listed.
func (r *remote) cached() []conv.Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]conv.Run(nil), r.runs...)
}

func (r *remote) remember(runs []conv.Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = runs
}

// peerError is a peer's answer that was not a success: its status and
// message, kept as they are for the client.
type peerError struct {
	peer   string
	status int
	msg    string
}

func (e *peerError) Error() string {
	return fmt.Sprintf("machine %s answered %d: %s", e.peer, e.status, e.msg)
}

// kindByStatus maps a peer's error status back to the kind that made it
// (the inverse of the API's table); anything else is internal.
var kindByStatus = map[int]conv.ErrorKind{
	http.StatusBadRequest:            conv.EInvalid,
	http.StatusForbidden:             conv.EForbidden,
	http.StatusNotFound:              conv.ENotFound,
	http.StatusConflict:              conv.EConflict,
	http.StatusRequestEntityTooLarge: conv.ETooLarge,
	http.StatusServiceUnavailable:    conv.EUnavailable,
}

// asConv turns a failed exchange with a peer into the error the hub's
// client gets: the peer's own kind and message for an answer, unavailable
// (naming the machine) when it could not be reached or refused the token.
func asConv(peer string, err error) error {
	var pe *peerError
	if errors.As(err, &pe) {
		if pe.status == http.StatusUnauthorized {
			return conv.Wrap(conv.EUnavailable, err, revokedText(peer, pe.msg))
		}
		kind, ok := kindByStatus[pe.status]
		if !ok {
			kind = conv.EInternal
		}
		return conv.Wrap(kind, err, pe.msg)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return conv.Wrap(conv.EUnavailable, err, unreachableText(peer, err))
}

func revokedText(peer, msg string) string {
	return fmt.Sprintf("machine %s refuses this lab's token (revoked there?): %s", peer, msg)
}

func unreachableText(peer string, err error) string {
	return fmt.Sprintf("machine %s cannot be reached: %s", peer, shortNetError(err))
}

// shortNetError drops the request line net/http puts before the cause
// ("Get \"http://…\": dial tcp …: connection refused").
func shortNetError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// maxAnswer bounds a peer's JSON answer the hub reads whole (lists,
// pages): far beyond any real one, short of exhausting memory.
const maxAnswer = 256 << 20

// call makes one API request to the peer with its token and decodes a
// JSON answer into out (when not nil). A non-2xx answer is a *peerError.
func (h *Hub) call(ctx context.Context, r *remote, method, path string, q url.Values, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.url(path, q).String(), rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// A caller that gave up (a list's short deadline, say) says nothing of
	// the peer: only a failure within the caller's time marks it down
	// (the follower's watchdog catches a peer that is really gone).
	res, err := h.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			h.failed(r, err)
		}
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		if ctx.Err() == nil {
			h.failed(r, err)
		}
		return err
	}
	if res.StatusCode >= 300 {
		perr := &peerError{peer: r.name, status: res.StatusCode, msg: errorMessage(res, raw)}
		if res.StatusCode == http.StatusUnauthorized {
			h.failed(r, perr)
		} else {
			h.reached(r)
		}
		return perr
	}
	h.reached(r)
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("machine %s: %s %s: %w", r.name, method, path, err)
	}
	return nil
}

// errorMessage is the peer's {"error": ...} text, else its status line.
func errorMessage(res *http.Response, raw []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error != "" {
		return e.Error
	}
	return res.Status
}
