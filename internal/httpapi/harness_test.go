package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/folders"
	"lab/internal/peer"
	"lab/internal/push"
	"lab/internal/push/pushtest"
	"lab/internal/store"
	"lab/internal/uploads"
)

const testPassword = "operator password"

// cheapArgon2 keeps logins fast in tests; the parameters travel in the
// hash, so verification is cheap too.
var cheapArgon2 = store.Argon2Params{Time: 1, MemoryKiB: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// syncBuffer collects log output from concurrent handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// harness is the whole server over real HTTP on loopback, with real
// SQLite and the fake run and session layers.
type harness struct {
	t        testing.TB
	db       *store.DB
	srv      *Server
	ts       *httptest.Server
	client   *http.Client
	runs     *fakeRuns
	sessions *fakeSessions
	// folderRoot is the home and only root of the real folder lister.
	folderRoot string
	clock      *clock
	logs       *syncBuffer
	pushSvc    *pushtest.Service // the stand-in push service devices subscribe at
	hub        *peer.Hub         // this lab's peers (none until a test adds one)

	mu   sync.Mutex
	from map[string]*http.Client // by local address; see clientFrom
}

type harnessOpt struct {
	noPassword bool
	tls        bool
	config     func(*Config)
	server     func(*http.Server) // before start
	hub        func(*peer.Config)
}

func newHarness(t testing.TB, opt harnessOpt) *harness {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(dir, "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &clock{t: time.Date(2026, 7, 8, 12, 0, 0, 0, time.UTC)}
	db.Now = clk.Now
	if !opt.noPassword {
		hash, err := store.HashPassword(testPassword, cheapArgon2)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetPasswordHash(context.Background(), hash); err != nil {
			t.Fatal(err)
		}
	}
	h := &harness{t: t, db: db, clock: clk, logs: &syncBuffer{}}
	broker := NewBroker(0)
	h.runs = newFakeRuns(broker)
	h.sessions = &fakeSessions{dir: t.TempDir()}
	h.pushSvc = pushtest.New(t)
	keys, err := push.LoadOrCreateKeys(filepath.Join(dir, push.KeysFile))
	if err != nil {
		t.Fatal(err)
	}
	pusher := &push.Service{DB: db, Keys: keys, AllowHTTP: true,
		Notifier: push.NewNotifier(push.Config{DB: db, Sender: &push.Sender{Keys: keys}})}
	h.folderRoot = t.TempDir()
	lister, err := folders.New(nil, h.folderRoot, nil)
	if err != nil {
		t.Fatal(err)
	}
	hubCfg := peer.Config{DB: db, Publish: broker.Publish}
	if opt.hub != nil {
		opt.hub(&hubCfg)
	}
	h.hub = peer.New(hubCfg)
	hubCtx, stopHub := context.WithCancel(context.Background())
	h.hub.Start(hubCtx)
	t.Cleanup(func() { stopHub(); h.hub.Close() })
	up := &fakeUploads{runs: h.runs, root: t.TempDir(), image: conv.Image{MediaType: "image/png", Data: pngOf(t)}}
	up.store = &uploads.Store{Staging: filepath.Join(up.root, "staging")}
	cfg := Config{
		Machine: "here", Peers: h.hub,
		Store: db, Runs: h.runs, Sessions: h.sessions, Broker: broker, Folders: lister, Housekeeping: h.runs, Continuity: h.runs, Push: pusher, Changes: &fakeChanges{},
		Uploads: up,
		Logger:  slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:     clk.Now,
		// Generous limits: only the rate-limit test wants to hit them.
		LoginLimit:       RateLimit{Burst: 1000, Every: time.Millisecond},
		GlobalLoginLimit: RateLimit{Burst: 1000, Every: time.Millisecond},
		Scenarios:        []Scenario{{Provider: "agent", Keyword: "lab:plan", Summary: "a plan", PermissionMode: "plan"}},
	}
	if opt.config != nil {
		opt.config(&cfg)
	}
	h.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.ts = httptest.NewUnstartedServer(h.srv)
	if opt.server != nil {
		opt.server(h.ts.Config)
	}
	if opt.tls {
		h.ts.StartTLS()
	} else {
		h.ts.Start()
	}
	// Drain first: a hub following this lab holds an event stream open,
	// which Close would wait for.
	t.Cleanup(func() { h.srv.Drain(); h.ts.Close() })
	h.client = h.ts.Client()
	return h
}

// rq is one request to the harness.
type rq struct {
	method, path, body string
	cookie             string // login session secret
	device             string // known-device cookie
	from               string // the client's own IP address (a loopback one); default the OS's choice
	csrf               string
	bearer             string
	origin             string
	host               string // overrides the Host header
	header             map[string]string
}

type resp struct {
	status int
	header http.Header
	body   []byte
	cookie *http.Cookie // the lab_session Set-Cookie, if any
	device *http.Cookie // the lab_device Set-Cookie, if any
}

func (r resp) errMsg(t *testing.T) string {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == "" {
		t.Fatalf("got body %q; want {\"error\": ...}", r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error Content-Type %q; want application/json", ct)
	}
	return e.Error
}

func (h *harness) do(r rq) resp {
	h.t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, h.ts.URL+r.path, body)
	if err != nil {
		h.t.Fatal(err)
	}
	if r.cookie != "" {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: r.cookie})
	}
	if r.device != "" {
		req.AddCookie(&http.Cookie{Name: DeviceCookie, Value: r.device})
	}
	if r.csrf != "" {
		req.Header.Set(CSRFHeader, r.csrf)
	}
	if r.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.bearer)
	}
	if r.origin != "" {
		req.Header.Set("Origin", r.origin)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	if r.host != "" {
		req.Host = r.host
	}
	client := h.client
	if r.from != "" {
		client = h.clientFrom(r.from)
	}
	res, err := client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	out := resp{status: res.StatusCode, header: res.Header, body: b}
	for _, c := range res.Cookies() {
		switch c.Name {
		case SessionCookie:
			out.cookie = c
		case DeviceCookie:
			out.device = c
		}
	}
	return out
}

// clientFrom is a client whose connections come from the given local
// address: Linux answers the whole of 127.0.0.0/8 on loopback, so tests
// can be many clients at once.
func (h *harness) clientFrom(ip string) *http.Client {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := h.from[ip]; c != nil {
		return c
	}
	tr := h.client.Transport.(*http.Transport).Clone()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr.DialContext = d.DialContext
	c := &http.Client{Transport: tr}
	if h.from == nil {
		h.from = map[string]*http.Client{}
	}
	h.from[ip] = c
	h.t.Cleanup(tr.CloseIdleConnections)
	return c
}

// login logs in with the test password and returns the cookie secret and
// the CSRF token.
func (h *harness) login() (string, string) {
	h.t.Helper()
	r := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"` + testPassword + `"}`})
	if r.status != http.StatusOK || r.cookie == nil {
		h.t.Fatalf("login: got %d %s; want 200 with a cookie", r.status, r.body)
	}
	var st AuthStatus
	if err := json.Unmarshal(r.body, &st); err != nil || st.CSRFToken == "" {
		h.t.Fatalf("login body %s: want a csrf_token", r.body)
	}
	return r.cookie.Value, st.CSRFToken
}

// token creates a bearer token.
func (h *harness) token(name string) string {
	h.t.Helper()
	secret, _, err := h.db.CreateAPIToken(context.Background(), name)
	if err != nil {
		h.t.Fatal(err)
	}
	return secret
}

// poll waits for cond, failing after a deadline.
func poll(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
