// Package httpapi serves lab's JSON API under /api/v1: runs and their
// messages, the history of every session, live invalidations over SSE,
// login, bearer tokens, health and metrics. Handlers stay thin: they
// decode, call the Runs and Sessions interfaces, and encode; every error
// leaves through one function that maps its conv kind to a status.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"lab/internal/conv"
	"lab/internal/store"
)

// Config is what New needs. Store, Runs and Sessions are required.
type Config struct {
	Store    *store.DB // the operator account, login sessions, API tokens
	Runs     Runs
	Sessions Sessions
	// Push serves Web Push subscriptions and presence; nil answers those
	// endpoints with 503.
	Push Push
	// Folders answers the folder picker; nil answers it with 503.
	Folders Folders
	// Housekeeping archives and bulk-stops runs; nil answers with 503.
	Housekeeping Housekeeping
	// Continuity resumes sessions and attaches to CLI processes lab did
	// not start; nil answers with 503.
	Continuity Continuity
	// Changes answers what runs changed in their folders and commits and
	// removes worktrees; nil answers with 503.
	Changes Changes
	// Terminals shows live runs' panes and types into them; nil answers
	// with 503.
	Terminals Terminals

	// Machine is this lab's name, carried by its runs and sessions so a
	// hub's lists can tell machines apart.
	Machine string
	// Peers are the labs this one relays for; nil: none (machine= and
	// peer ids are then nobody's).
	Peers Peers

	// Uploads keeps the files sent for agents and serves the images a
	// chat shows; nil answers with 503.
	Uploads Uploads

	// Broker fans events out to SSE clients; nil makes one. Pass your own
	// to publish before the server exists.
	Broker *Broker
	// Registry receives the HTTP metrics; nil makes one. Register run and
	// tailer gauges on it before or after New.
	Registry *prometheus.Registry
	Logger   *slog.Logger // nil: slog.Default()

	// BaseURL is the declared external URL (e.g. https://lab.example.org
	// behind a TLS proxy). An https BaseURL makes cookies Secure; its
	// origin is trusted for state-changing browser requests.
	BaseURL string
	// Providers are the agent CLIs this lab runs, served to the new-run
	// form (names, permission modes); the first is the default.
	Providers []conv.ProviderInfo
	// UI serves the web app for GET and HEAD requests outside /api; nil
	// answers those with 404.
	UI http.Handler
	// AllowedHosts are the names (no port) requests may carry as Host;
	// anything else is refused with 403. Empty allows every host. Serve
	// sets the loopback names when bound to loopback.
	AllowedHosts []string
	// Ready is an extra readiness check for /readyz besides the database.
	Ready func(context.Context) error
	// Scenarios, when not nil, are the scripted conversations of a demo
	// server's model (GET /api/v1/demo/scenarios).
	Scenarios []Scenario

	Heartbeat       time.Duration // SSE heartbeat interval; default 10 s
	SSEWriteTimeout time.Duration // per-event write deadline; default 10 s
	MaxBodyBytes    int64         // request body cap; default 1 MiB
	MaxUploadBytes  int64         // an upload's cap (its store's too); default 20 MiB

	// Login and setup attempts. A known device (a browser that logged in
	// before, holding a valid device cookie) spends only from its own
	// DeviceLoginLimit; any other client from LoginLimit of its address
	// and GlobalLoginLimit shared by all of them.
	LoginLimit       RateLimit // per client address (an IPv6 /64); default 5 then 1 per 12 s
	GlobalLoginLimit RateLimit // all unknown clients together; default 20 then 1 per 2 s
	DeviceLoginLimit RateLimit // per known device; default 10 then 1 per minute
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed when telling client addresses apart; empty ignores it.
	TrustedProxies []netip.Prefix
	// PasswordHashes bounds the password hashes (64 MiB each) unknown
	// clients may run at once; known devices have one slot more of their
	// own. Default 1.
	PasswordHashes int
	// HashWait is how long an attempt waits for a hash slot before 429;
	// default 3 s.
	HashWait time.Duration
	Now      func() time.Time // rate limiter clock; default time.Now
}

// Defaults for the zero fields of Config.
const (
	DefaultHeartbeat       = 10 * time.Second
	DefaultSSEWriteTimeout = 10 * time.Second
	DefaultMaxBodyBytes    = 1 << 20
	DefaultMaxUploadBytes  = 20 << 20
)

var (
	defaultLoginLimit       = RateLimit{Burst: 5, Every: 12 * time.Second}
	defaultGlobalLoginLimit = RateLimit{Burst: 20, Every: 2 * time.Second}
	defaultDeviceLoginLimit = RateLimit{Burst: 10, Every: time.Minute}
)

const (
	defaultPasswordHashes = 1
	defaultHashWait       = 3 * time.Second
)

// Server is lab's HTTP handler. Build it with New.
type Server struct {
	cfg     Config
	log     *slog.Logger
	store   *store.DB
	broker  *Broker
	reg     *prometheus.Registry
	metrics *metrics
	origins *http.CrossOriginProtection
	secure  bool // the declared base URL is https
	// baseOrigin is the declared base URL's scheme://host, trusted like
	// the request's own host.
	baseOrigin string
	limiter    *limiter
	hashes     *hashGate
	handler    http.Handler
	draining   atomic.Bool
	// idemLocks serialise the attempts of one idempotency key.
	idemLocks keyLocks
	// drained is closed by Drain: streams that do not ride the broker
	// (terminals) end on it.
	drained   chan struct{}
	drainOnce sync.Once
}

// New checks cfg, fills its defaults and builds the handler.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.Runs == nil || cfg.Sessions == nil {
		return nil, errors.New("httpapi: Config needs Store, Runs and Sessions")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Broker == nil {
		cfg.Broker = NewBroker(0)
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.SSEWriteTimeout <= 0 {
		cfg.SSEWriteTimeout = DefaultSSEWriteTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if cfg.LoginLimit == (RateLimit{}) {
		cfg.LoginLimit = defaultLoginLimit
	}
	if cfg.GlobalLoginLimit == (RateLimit{}) {
		cfg.GlobalLoginLimit = defaultGlobalLoginLimit
	}
	if cfg.DeviceLoginLimit == (RateLimit{}) {
		cfg.DeviceLoginLimit = defaultDeviceLoginLimit
	}
	if cfg.PasswordHashes <= 0 {
		cfg.PasswordHashes = defaultPasswordHashes
	}
	if cfg.HashWait <= 0 {
		cfg.HashWait = defaultHashWait
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		store:   cfg.Store,
		broker:  cfg.Broker,
		reg:     cfg.Registry,
		origins: http.NewCrossOriginProtection(),
		limiter: newLimiter(cfg.LoginLimit, cfg.GlobalLoginLimit, cfg.DeviceLoginLimit, cfg.Now),
		hashes:  newHashGate(cfg.PasswordHashes, cfg.HashWait),
		drained: make(chan struct{}),
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("httpapi: base URL %q must be http(s)://host[:port][/path]", cfg.BaseURL)
		}
		s.baseOrigin = u.Scheme + "://" + u.Host
		if err := s.origins.AddTrustedOrigin(s.baseOrigin); err != nil {
			return nil, fmt.Errorf("httpapi: base URL %q: %w", cfg.BaseURL, err)
		}
		s.secure = u.Scheme == "https"
	}
	m, err := newMetrics(cfg.Registry, cfg.Broker)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	s.handler = s.routes()
	return s, nil
}

// ServeHTTP serves lab's API and, outside /api, the web app.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Broker returns the event broker the chat layer publishes to.
func (s *Server) Broker() *Broker { return s.broker }

// Registry returns the Prometheus registry /metrics serves.
func (s *Server) Registry() *prometheus.Registry { return s.reg }

// Drain starts a graceful shutdown: /readyz turns 503 and every SSE stream
// ends, so http.Server.Shutdown is not held up by them. Runs are not
// touched. Safe to call more than once.
func (s *Server) Drain() {
	s.draining.Store(true)
	s.broker.Close()
	s.drainOnce.Do(func() { close(s.drained) })
}

// HTTPServer wraps the handler in an http.Server with timeouts that suit
// lab (SSE streams lift their own deadlines) and whose Shutdown drains.
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	hs.RegisterOnShutdown(s.Drain)
	return hs
}

// SetupURL is the first-run link to print in the log: the web app reads
// the token from the fragment, which browsers never send to a server or
// put in a Referer.
func SetupURL(baseURL, token string) string {
	for len(baseURL) > 0 && baseURL[len(baseURL)-1] == '/' {
		baseURL = baseURL[:len(baseURL)-1]
	}
	return baseURL + "/setup#token=" + url.QueryEscape(token)
}
