package peer

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// Config wires a Hub. DB is required.
type Config struct {
	DB *store.DB
	// Publish receives every peer's events, ids translated, and a
	// machine.changed event when a peer's reachability changes: the SSE
	// broker and the push notifier.
	Publish func(conv.Event)
	// Seed is told the live runs of a peer the first time its follower
	// reaches it since lab started, before their events are published:
	// the push notifier records them without pushing, as it does for
	// local runs at start-up (a restart of the hub must not push again
	// for a dialog that was already waiting).
	Seed   func(ids []string)
	Logger *slog.Logger

	// Heartbeat is the interval the hub asks of each peer's event stream;
	// a stream silent for three of them is taken for dead. Default 5 s.
	Heartbeat time.Duration
	// ListTimeout bounds the wait for one peer's list (runs, history); a
	// slower peer is shown by its last known runs. Default 3 s.
	ListTimeout time.Duration
	// SyncEvery is how often the peers table is read again, for peers
	// added or removed by `lab peer` while lab serves. Default 5 s.
	SyncEvery time.Duration
	// MaxBackoff is the longest wait between two attempts to reach an
	// unreachable peer. Default 5 s.
	MaxBackoff time.Duration
	// WriteTimeout bounds each write of a relayed stream to the hub's
	// client, as the hub's own event stream does. Default 10 s.
	WriteTimeout time.Duration
	// Transport carries every request to a peer; nil makes one.
	Transport http.RoundTripper
	Now       func() time.Time
}

// Defaults for the zero fields of Config.
const (
	DefaultHeartbeat    = 5 * time.Second
	DefaultListTimeout  = 3 * time.Second
	DefaultSyncEvery    = 5 * time.Second
	DefaultMaxBackoff   = 5 * time.Second
	DefaultWriteTimeout = 10 * time.Second
)

// Hub holds this lab's peers: a client and a follower for each. Safe for
// concurrent use.
type Hub struct {
	cfg    Config
	log    *slog.Logger
	client *http.Client

	mu      sync.Mutex
	remotes map[string]*remote
	ctx     context.Context // the followers' parent, set by Start
	syncMu  sync.Mutex      // one sync at a time

	stop context.CancelFunc
	wg   sync.WaitGroup
}

// New builds a hub; Start reads its peers and begins following them.
func New(cfg Config) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Publish == nil {
		cfg.Publish = func(conv.Event) {}
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.ListTimeout <= 0 {
		cfg.ListTimeout = DefaultListTimeout
	}
	if cfg.SyncEvery <= 0 {
		cfg.SyncEvery = DefaultSyncEvery
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Transport == nil {
		cfg.Transport = newTransport()
	}
	return &Hub{cfg: cfg, log: cfg.Logger, client: &http.Client{Transport: cfg.Transport}, remotes: map[string]*remote{}, ctx: context.Background()}
}

// newTransport is for requests to peers: quick to give up connecting (a
// peer that is down is shown as such), patient once a request is
// accepted (an answer may type into a pane for seconds), never a total
// timeout (event streams and relayed streams live for hours).
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 2 * time.Minute,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   8,
		ForceAttemptHTTP2:     true,
	}
}

// Start reads the peers, follows each, and re-reads the table every
// SyncEvery until ctx ends or Close.
func (h *Hub) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	h.mu.Lock()
	h.ctx, h.stop = ctx, cancel
	h.mu.Unlock()
	h.sync(ctx)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(h.cfg.SyncEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				h.sync(ctx)
			}
		}
	}()
}

// Close stops every follower and waits for them.
func (h *Hub) Close() {
	h.mu.Lock()
	stop := h.stop
	h.mu.Unlock()
	if stop != nil {
		stop()
	}
	h.wg.Wait()
}

// sync brings the followers in line with the peers table: new peers are
// followed, removed ones let go, changed ones (another URL or token)
// started afresh.
func (h *Hub) sync(ctx context.Context) {
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	list, err := h.cfg.DB.Peers(ctx)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("peers: read the peers table", "err", err)
		}
		return
	}
	want := map[string]store.Peer{}
	for _, p := range list {
		want[p.Name] = p
	}
	h.mu.Lock()
	var gone []*remote
	for name, r := range h.remotes {
		if p, ok := want[name]; !ok || !r.same(p) {
			gone = append(gone, r)
			delete(h.remotes, name)
		}
	}
	var added []*remote
	for name, p := range want {
		if _, ok := h.remotes[name]; ok {
			continue
		}
		r, err := newRemote(p)
		if err != nil {
			h.log.Warn("peers: a peer's URL is refused; it is not followed", "peer", name, "err", err)
			continue
		}
		h.remotes[name] = r
		added = append(added, r)
	}
	parent := h.ctx
	h.mu.Unlock()

	for _, r := range gone {
		r.stop()
		<-r.done
		h.cfg.Publish(conv.Event{Type: conv.EventMachineChanged, Machine: r.name})
	}
	for _, r := range added {
		fctx, cancel := context.WithCancel(parent)
		r.stop, r.done = cancel, make(chan struct{})
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			defer close(r.done)
			h.follow(fctx, r)
		}()
	}
}

// remote returns the peer of that name, nil when there is none.
func (h *Hub) remote(name string) *remote {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.remotes[name]
}

// all returns every peer, by name.
func (h *Hub) all() []*remote {
	h.mu.Lock()
	out := make([]*remote, 0, len(h.remotes))
	for _, r := range h.remotes {
		out = append(out, r)
	}
	h.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Has reports whether name is a peer.
func (h *Hub) Has(name string) bool { return h.remote(name) != nil }

// Machines describes every peer with its reachability, by name.
func (h *Hub) Machines() []conv.Machine {
	var out []conv.Machine
	for _, r := range h.all() {
		out = append(out, r.machine())
	}
	return out
}

// reached notes that r answered; the hub's clients hear of a change.
func (h *Hub) reached(r *remote) {
	if r.reach.ok() {
		h.log.Info("peers: machine reachable", "peer", r.name)
		h.cfg.Publish(conv.Event{Type: conv.EventMachineChanged, Machine: r.name})
	}
}

// failed notes that r could not be reached, or refused the token (a 401).
func (h *Hub) failed(r *remote, err error) {
	if errors.Is(err, context.Canceled) {
		return // the hub's own client left, or the follower stopped
	}
	status, msg := conv.MachineUnreachable, unreachableText(r.name, err)
	var pe *peerError
	switch {
	case errors.As(err, &pe) && pe.status == http.StatusUnauthorized:
		status, msg = conv.MachineRevoked, revokedText(r.name, pe.msg)
	case errors.As(err, &pe):
		msg = pe.Error() // it answered, but not as a lab would: a proxy's error page, say
	}
	if r.reach.fail(status, msg, h.cfg.Now()) {
		h.log.Warn("peers: machine "+status, "peer", r.name, "err", msg)
		h.cfg.Publish(conv.Event{Type: conv.EventMachineChanged, Machine: r.name})
	}
}

// Add checks a peer's URL and token, stores it and follows it. The token
// is tried on the peer first: a peer that refuses it is not added
// (conv.EInvalid); one that cannot be reached now is, its row saying so.
// conv.EConflict when the name is taken.
func (h *Hub) Add(ctx context.Context, p store.Peer) (conv.Machine, error) {
	if err := store.CheckPeerName(p.Name); err != nil {
		return conv.Machine{}, err
	}
	u, err := CheckURL(p.URL, p.AllowHTTP)
	if err != nil {
		return conv.Machine{}, err
	}
	p.URL = u.String()
	probe := Probe(ctx, h.client, p)
	if conv.KindOf(probe) == conv.EInvalid {
		return conv.Machine{}, probe
	}
	if _, err := h.cfg.DB.AddPeer(ctx, p); err != nil {
		return conv.Machine{}, err
	}
	h.sync(ctx)
	if r := h.remote(p.Name); r != nil {
		if probe == nil {
			h.reached(r) // it just answered
		}
		return r.machine(), nil
	}
	return conv.Machine{}, conv.Errorf(conv.EInternal, "peer %q was stored but is not followed", p.Name)
}

// Remove forgets a peer and its token. conv.ENotFound when there is none.
func (h *Hub) Remove(ctx context.Context, name string) error {
	if _, err := h.cfg.DB.RemovePeer(ctx, name); err != nil {
		return err
	}
	h.sync(ctx)
	return nil
}
