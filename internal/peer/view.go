package peer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"lab/internal/conv"
)

// Runs is the chat layer as the push notifier reads it.
type Runs interface {
	List(ctx context.Context) ([]conv.Run, error)
	Get(ctx context.Context, id string) (conv.Run, error)
	Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error)
	Answer(ctx context.Context, id string, a conv.Answer) error
}

// View lets the notifier read a peer's run by the id the hub gives it, as
// it reads a local one, so one notifier pushes for every machine's runs.
// List stays local: a peer's live runs are seeded to the notifier when its
// follower first reaches it (Config.Seed), not at lab's start, when the
// peer may not answer yet.
func (h *Hub) View(local Runs) Runs { return view{h: h, local: local} }

type view struct {
	h     *Hub
	local Runs
}

func (v view) List(ctx context.Context) ([]conv.Run, error) { return v.local.List(ctx) }

// Get finds a peer's run in its runs list (a lab serves no single run).
func (v view) Get(ctx context.Context, id string) (conv.Run, error) {
	peer, _, ok := Split(id)
	if !ok {
		return v.local.Get(ctx, id)
	}
	r := v.h.remote(peer)
	if r == nil {
		return conv.Run{}, conv.Errorf(conv.ENotFound, "no machine named %q", peer)
	}
	runs, err := v.h.peerRuns(ctx, r, false)
	if err != nil {
		return conv.Run{}, asConv(peer, err)
	}
	for _, run := range runs {
		if run.ID == id {
			return run, nil
		}
	}
	return conv.Run{}, conv.Errorf(conv.ENotFound, "no run %q on machine %s", id, peer)
}

// Messages reads a window of a peer's run.
func (v view) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	peer, own, ok := Split(id)
	if !ok {
		return v.local.Messages(ctx, id, q)
	}
	r := v.h.remote(peer)
	if r == nil {
		return conv.Page{}, conv.Errorf(conv.ENotFound, "no machine named %q", peer)
	}
	vals := url.Values{}
	for k, n := range map[string]int{"after": q.After, "before": q.Before, "limit": q.Limit} {
		if n > 0 {
			vals.Set(k, strconv.Itoa(n))
		}
	}
	var p conv.Page
	if err := v.h.call(ctx, r, http.MethodGet, "/api/v1/runs/"+url.PathEscape(own)+"/messages", vals, nil, &p); err != nil {
		return conv.Page{}, asConv(peer, err)
	}
	return p, nil
}

// Answer answers a peer's run's pending dialog (a notification's button
// pressed at the hub) through the peer's API, which makes the same checks
// as for its own app.
func (v view) Answer(ctx context.Context, id string, a conv.Answer) error {
	peer, own, ok := Split(id)
	if !ok {
		return v.local.Answer(ctx, id, a)
	}
	r := v.h.remote(peer)
	if r == nil {
		return conv.Errorf(conv.ENotFound, "no machine named %q", peer)
	}
	if err := v.h.call(ctx, r, http.MethodPost, "/api/v1/runs/"+url.PathEscape(own)+"/answer", nil, a, nil); err != nil {
		return asConv(peer, err)
	}
	return nil
}
