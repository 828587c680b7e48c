package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lab/internal/agent"
	"lab/internal/changes"
	"lab/internal/chat"
	"lab/internal/claude"
	"lab/internal/codex"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
	"lab/internal/folders"
	"lab/internal/httpapi"
	"lab/internal/peer"
	"lab/internal/push"
	"lab/internal/runs"
	"lab/internal/store"
	"lab/internal/tmux"
	"lab/internal/uploads"
	"lab/internal/webui"

	"github.com/prometheus/client_golang/prometheus"
)

func init() {
	commands["serve"] = command{"serve the API and web app (the default)", func(ctx context.Context, args []string, env Env) error {
		return serveCommand(ctx, args, env, false)
	}}
	commands["demo"] = command{"serve with a built-in scripted model: no API key needed", func(ctx context.Context, args []string, env Env) error {
		return serveCommand(ctx, args, env, true)
	}}
}

// serveConfig is everything serve needs, from flags and environment.
type serveConfig struct {
	Addr      string
	StateDir  string
	ClaudeBin string
	ClaudeEnv []string // KEY=VALUE added to every run's environment
	CodexBin  string
	// CodexHome is the Codex CLI's CODEX_HOME for runs and history.
	CodexHome string
	BaseURL   string
	Home      string // whose ~/.claude lab reads and runs use
	// UserHome is the operator's own home: what "~" means in a folder,
	// and the folder picker's default root (the demo's Home is private).
	UserHome string
	// FolderRoots are where the folder picker may list; default UserHome.
	FolderRoots []string
	SeedTrust   bool
	Demo        bool
	LogLevel    string
	// AllowedHosts are extra Host names to answer to besides loopback's.
	AllowedHosts []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client for login rate limits.
	TrustedProxies []netip.Prefix
	// CodexJail puts the demo's Codex runs in a network namespace with
	// only loopback, when the machine allows it.
	CodexJail bool
	// Self is how to run this program again (the demo's jailed Codex runs
	// call its jail subcommand); default the running executable.
	Self []string
	// PushSubject is the VAPID contact push services may use.
	PushSubject string
	// Machine is this lab's name, shown on its runs beside its peers'.
	Machine string
	// Heartbeat is how often the event stream says it is alive; clients
	// take a stream silent for a few of them for dead (0: the default).
	Heartbeat time.Duration
	// UploadMaxMB bounds a file sent for an agent, in MiB.
	UploadMaxMB int
	// DemoModels, when set (by tests), hears the demo's scripted models
	// once they serve, so a test can read what the CLIs asked them.
	DemoModels demoModels
}

// demoModels are the hooks that hear a demo's scripted models.
type demoModels struct {
	Claude func(*fakeclaudeapi.Server)
	Codex  func(*fakecodexapi.Server)
}

// The bounds of --heartbeat: often enough for a test to see a silent
// stream noticed in seconds, seldom enough that a dead one is noticed
// within a minute.
const (
	minHeartbeat = 100 * time.Millisecond
	maxHeartbeat = 30 * time.Second
)

// envList collects repeated KEY=VALUE flags.
type envList []string

func (e *envList) String() string { return strings.Join(*e, ",") }
func (e *envList) Set(v string) error {
	k, _, ok := strings.Cut(v, "=")
	if !ok || k == "" || strings.ContainsAny(k, " \t\n") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

func parseServe(args []string, env Env, demo bool) (serveConfig, error) {
	name, about := "serve", "Serves the API and the web app; runs use the claude and codex on PATH, your own\n~/.claude and your CODEX_HOME (~/.codex)."
	if demo {
		name, about = "demo", "Serves lab with built-in scripted models instead of the real APIs: no key needed.\nRuns get a private HOME (and CODEX_HOME) in the state folder; a lab:<scenario>\nkeyword in a prompt picks the script (the New run screen lists them). Codex runs\nare jailed in a network namespace with only loopback (see README)."
	}
	fs := newFlags(name, "[flags]", about, env)
	get := func(k, def string) string {
		if v := env.Getenv(k); v != "" {
			return v
		}
		return def
	}
	c := serveConfig{Demo: demo}
	home := get("HOME", "")
	fs.StringVar(&c.Addr, "addr", get("LAB_ADDR", "127.0.0.1:8080"), "listen address (env LAB_ADDR); anything but loopback exposes lab to the network")
	fs.StringVar(&c.StateDir, "state-dir", "", "state folder (env LAB_STATE_DIR; default ~/.local/state/lab, demo: ~/.local/state/lab/demo)")
	fs.StringVar(&c.ClaudeBin, "claude-bin", get("LAB_CLAUDE_BIN", ""), "the claude binary (env LAB_CLAUDE_BIN; default: claude on PATH, demo: the pinned one in tools/)")
	fs.Var((*envList)(&c.ClaudeEnv), "claude-env", "KEY=VALUE added to every run's environment (repeatable)")
	fs.StringVar(&c.CodexBin, "codex-bin", get("LAB_CODEX_BIN", ""), "the codex binary (env LAB_CODEX_BIN; default: codex on PATH, demo: the pinned one in tools/)")
	fs.StringVar(&c.CodexHome, "codex-home", get("LAB_CODEX_HOME", get("CODEX_HOME", "")), "the Codex CLI's home for runs and history (env LAB_CODEX_HOME, else CODEX_HOME; default ~/.codex, demo: <state>/codex-home)")
	if demo {
		fs.BoolVar(&c.CodexJail, "codex-jail", get("LAB_CODEX_JAIL", "true") != "false", "run each Codex run in a network namespace with only loopback, when the machine allows it (env LAB_CODEX_JAIL)")
	}
	fs.StringVar(&c.BaseURL, "base-url", get("LAB_BASE_URL", ""), "the external URL when behind a proxy, e.g. https://lab.example.org (env LAB_BASE_URL); https makes cookies Secure")
	fs.BoolVar(&c.SeedTrust, "seed-trust", get("LAB_SEED_TRUST", "true") != "false", "mark a run's folder trusted in ~/.claude.json before starting it (env LAB_SEED_TRUST)")
	fs.Var((*hostList)(&c.AllowedHosts), "allowed-hosts", "comma-separated host names lab answers to besides localhost (env LAB_ALLOWED_HOSTS); needed when reached by name through a proxy")
	fs.Var((*proxyList)(&c.TrustedProxies), "trusted-proxies", "comma-separated addresses or CIDR networks of reverse proxies whose X-Forwarded-For names the client (env LAB_TRUSTED_PROXIES; default none); a proxy on this machine connects from 127.0.0.1 or ::1")
	fs.StringVar(&c.PushSubject, "push-subject", get("LAB_PUSH_SUBJECT", push.DefaultSubject), "contact for Web Push services, mailto:you@example.org or an https URL (env LAB_PUSH_SUBJECT); Apple refuses localhost addresses")
	fs.IntVar(&c.UploadMaxMB, "upload-max-mb", uploads.DefaultMax>>20, "largest file (photo or other) sent for an agent, in MiB (env LAB_UPLOAD_MAX_MB); larger ones get 413")
	fs.Var((*pathList)(&c.FolderRoots), "folder-roots", "colon-separated folders the new-run folder picker may list under (env LAB_FOLDER_ROOTS; default your home)")
	fs.StringVar(&c.Machine, "machine", get("LAB_MACHINE", ""), "this lab's name, shown on its runs where a hub shows other labs' too (env LAB_MACHINE; default the host name)")
	fs.DurationVar(&c.Heartbeat, "heartbeat", 0, "how often the event stream sends a heartbeat (env LAB_HEARTBEAT; default 10s); the web app reconnects a stream silent for 2.5 of them")
	fs.StringVar(&c.LogLevel, "log-level", get("LAB_LOG_LEVEL", "info"), "debug, info, warn or error")
	if err := parseFlags(fs, args, env); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if v := env.Getenv("LAB_UPLOAD_MAX_MB"); v != "" && !explicitFlag(fs, "upload-max-mb") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return c, fmt.Errorf("LAB_UPLOAD_MAX_MB %q: want a whole number of MiB", v)
		}
		c.UploadMaxMB = n
	}
	if c.UploadMaxMB < 1 || c.UploadMaxMB > 1024 {
		return c, fmt.Errorf("--upload-max-mb %d: want 1 to 1024", c.UploadMaxMB)
	}
	if v := env.Getenv("LAB_ALLOWED_HOSTS"); v != "" && len(c.AllowedHosts) == 0 {
		(*hostList)(&c.AllowedHosts).Set(v)
	}
	if v := env.Getenv("LAB_TRUSTED_PROXIES"); v != "" && !explicitFlag(fs, "trusted-proxies") {
		if err := (*proxyList)(&c.TrustedProxies).Set(v); err != nil {
			return c, fmt.Errorf("LAB_TRUSTED_PROXIES: %w", err)
		}
	}
	if v := env.Getenv("LAB_HEARTBEAT"); v != "" && !explicitFlag(fs, "heartbeat") {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("LAB_HEARTBEAT: %w", err)
		}
		c.Heartbeat = d
	}
	if c.Heartbeat != 0 && (c.Heartbeat < minHeartbeat || c.Heartbeat > maxHeartbeat) {
		return c, fmt.Errorf("--heartbeat %s: want %s to %s", c.Heartbeat, minHeartbeat, maxHeartbeat)
	}
	if v := env.Getenv("LAB_FOLDER_ROOTS"); v != "" && len(c.FolderRoots) == 0 {
		(*pathList)(&c.FolderRoots).Set(v)
	}
	dir, err := StateDir(c.StateDir, env.Getenv)
	if err != nil {
		return c, err
	}
	c.StateDir = dir
	if demo && !explicitStateDir(fs, env) {
		c.StateDir = filepath.Join(dir, "demo")
	}
	c.Home, c.UserHome = home, home
	if demo {
		// The demo never touches the operator's own CLI setups.
		c.Home = filepath.Join(c.StateDir, "home")
		if c.ClaudeBin == "" {
			c.ClaudeBin = pinnedClaude()
		}
		if c.CodexBin == "" {
			c.CodexBin = pinnedCodex()
		}
		if !explicitFlag(fs, "codex-home") && env.Getenv("LAB_CODEX_HOME") == "" {
			c.CodexHome = filepath.Join(c.StateDir, "codex-home")
		}
	}
	if c.Machine, err = machineName(c.Machine); err != nil {
		return c, err
	}
	if c.ClaudeBin == "" {
		c.ClaudeBin = "claude"
	}
	if c.CodexBin == "" {
		c.CodexBin = "codex"
	}
	if c.Home == "" {
		return c, errors.New("HOME is not set")
	}
	if c.CodexHome == "" {
		c.CodexHome = filepath.Join(c.Home, ".codex")
	}
	if abs, err := filepath.Abs(c.CodexHome); err == nil {
		c.CodexHome = abs
	}
	return c, nil
}

// pinnedClaude is where scripts/install-claude.sh puts the pinned CLI,
// relative to the working directory (the repository when run by make).
func pinnedClaude() string {
	p, _ := filepath.Abs(filepath.Join("tools", "claude-"+claude.PinnedVersion, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"))
	return p
}

// pinnedCodex is where scripts/install-codex.sh puts the pinned Codex
// CLI's native binary, relative to the working directory.
func pinnedCodex() string {
	p, _ := filepath.Abs(filepath.Join("tools", "codex-"+codex.PinnedVersion, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex"))
	return p
}

func serveCommand(ctx context.Context, args []string, env Env, demo bool) error {
	c, err := parseServe(args, env, demo)
	if err != nil {
		return err
	}
	return serve(ctx, c, env, nil)
}

// serve runs lab until ctx ends. ready, when set, receives the listening
// address once the server accepts connections (for tests).
func serve(ctx context.Context, c serveConfig, env Env, ready func(addr string)) error {
	level := new(slog.LevelVar)
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("log level: %w", err)
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))

	db, err := OpenStore(ctx, c.StateDir)
	if err != nil {
		return err
	}
	defer db.Close()

	extraEnv := map[string]string{}
	for _, kv := range c.ClaudeEnv {
		k, v, _ := strings.Cut(kv, "=")
		extraEnv[k] = v
	}
	var codexP agent.Provider = codex.New(c.CodexHome)
	if c.Demo {
		stopFake, err := startDemoModel(c, extraEnv, log)
		if err != nil {
			return err
		}
		defer stopFake()
		p, stopCodex, err := startCodexDemo(ctx, c, log)
		if err != nil {
			return err
		}
		defer stopCodex()
		codexP = p
	}

	providers := []agent.Provider{claude.New(), codexP}
	var shelves []chat.Shelf
	for _, p := range providers {
		shelves = append(shelves, chat.Shelf{Provider: p.Info().Name, History: p.NewHistory(c.Home), NewFold: p.NewFold})
	}
	lib := chat.NewLibrary(shelves, func(ctx context.Context) map[string]chat.Owner {
		return sessionOwners(ctx, db)
	})
	// Snapshots of runs' folders: the first as a run starts (before its
	// CLI), then at each turn's end (told by the chat layer).
	chg := changes.New(changes.Config{DB: db, Sessions: sessionsAdapter{lib}, Logger: log})
	defer chg.Close()
	// Files sent for a run about to start wait here, then move into
	// the run's own folder (each run's uploads live there).
	ups := &uploads.Store{Staging: filepath.Join(c.StateDir, "uploads"), Max: int64(c.UploadMaxMB) << 20}
	rs, err := runs.New(db, runs.Config{
		StateDir: c.StateDir,
		Agents: []runs.Agent{
			{Provider: providers[0], Bin: c.ClaudeBin},
			{Provider: providers[1], Bin: c.CodexBin},
		},
		ExtraEnv:    extraEnv,
		Home:        c.Home,
		SeedTrust:   c.SeedTrust,
		UserHome:    c.UserHome,
		Logger:      log,
		BeforeSpawn: chg.Started,
		Uploads:     ups,
	})
	if err != nil {
		return err
	}
	// Say now which CLIs runs will use, and warn when lab was never
	// verified with one; a missing CLI still leaves history to serve.
	if err := rs.CheckCLI(ctx); err != nil {
		log.Warn("a CLI is not usable: starting runs with it will fail", "err", err)
	}
	// Adopt before serving: a restart of lab never kills or loses a run.
	if _, err := rs.Adopt(ctx); err != nil {
		return fmt.Errorf("adopt runs: %w", err)
	}

	broker := httpapi.NewBroker(0)
	keys, err := push.LoadOrCreateKeys(filepath.Join(c.StateDir, push.KeysFile))
	if err != nil {
		return err
	}
	notifier := push.NewNotifier(push.Config{
		DB: db, Sender: &push.Sender{Keys: keys, Subject: c.PushSubject}, Logger: log,
	})
	defer notifier.Close()
	intents := chat.NewIntents()
	// Index the history in the background, so the first search is quick.
	go lib.Warm(ctx)
	svc, err := chat.NewService(ctx, chat.ServiceConfig{
		Runs:      runnerAdapter{rs},
		Providers: providers,
		Library:   lib,
		// The notifier listens beside the SSE broker: a run's state change
		// reaches browsers and push services from the same event.
		Publish: publishers{broker, notifier},
		Logger:  log,
		Intents: intents.Lookup,
		OnTurn:  chg.Turn,
		Home:    c.Home,
		Uploads: uploadsAPI{rs: rs, store: ups}.Resolve,
		// Words a turn drew but its CLI never recorded (an interrupted
		// Codex turn) are kept beside the transcripts.
		Partials: db,
		Actions: func(r conv.Run, drv agent.Driver, p chat.Pane, pending func(context.Context) (*conv.Dialog, error)) chat.Actions {
			opts := chat.ActorOptions{}
			// A reply left in the prompt by a lab that stopped mid-reply
			// is known by this note in the run's folder.
			if rec, err := rs.Record(ctx, r.ID); err == nil && rec.RunDir != "" {
				opts.Journal = filepath.Join(rec.RunDir, "reply-in-prompt.json")
			}
			return chat.NewActor(p, drv, pending, intents, opts)
		},
	})
	if err != nil {
		return err
	}
	defer svc.Close()
	// Peers: the other labs this one shows the runs of. Their events
	// reach browsers and the notifier like local ones, so the phone
	// subscribed here is pushed for every machine's runs.
	hub := peer.New(peer.Config{DB: db, Publish: publishers{broker, notifier}.Publish, Seed: notifier.Seed, Logger: log})
	notifier.Start(ctx, hub.View(svc))
	hub.Start(ctx)
	defer hub.Close()

	picker, err := folders.New(c.FolderRoots, c.UserHome, func(ctx context.Context) []string {
		return recentFolders(ctx, rs, lib)
	})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	addr := ln.Addr().String()
	var hosts []string
	if isLoopback(ln.Addr()) {
		hosts = append([]string{"localhost", "127.0.0.1", "::1"}, c.AllowedHosts...)
		if u, err := url.Parse(c.BaseURL); err == nil && u.Hostname() != "" {
			hosts = append(hosts, u.Hostname())
		}
	} else {
		log.Warn("listening beyond loopback: lab is reachable from the network", "addr", addr)
		hosts = c.AllowedHosts
	}
	var infos []conv.ProviderInfo
	for _, p := range providers {
		infos = append(infos, p.Info())
	}
	api, err := httpapi.New(httpapi.Config{
		Providers: infos,
		Store:     db, Runs: svc, Sessions: sessionsAdapter{lib}, Folders: picker, Broker: broker,
		Housekeeping: housekeeping{rs: rs, svc: svc, pub: broker, chg: chg}, Continuity: svc, Terminals: svc,
		Changes: changesAPI{chg: chg, rs: rs, pub: broker, log: log},
		Machine: c.Machine, Peers: hub,
		Uploads: uploadsAPI{rs: rs, store: ups, svc: svc, lib: lib}, MaxUploadBytes: ups.Max,
		// The demo's browsers may subscribe at a local stand-in service.
		Push:   &push.Service{DB: db, Keys: keys, Notifier: notifier, AllowHTTP: c.Demo},
		Logger: log, BaseURL: c.BaseURL, UI: webui.Handler(), AllowedHosts: hosts, TrustedProxies: c.TrustedProxies,
		Scenarios: demoScenarios(c.Demo), Heartbeat: c.Heartbeat,
	})
	if err != nil {
		ln.Close()
		return err
	}
	registerGauges(api, svc)
	base := c.BaseURL
	if base == "" {
		base = "http://" + addr
	}
	if err := announceSetup(ctx, db, base, log); err != nil {
		return err
	}
	hs := api.HTTPServer(addr)
	// Relayed streams end with the server's own on shutdown.
	hs.RegisterOnShutdown(hub.Close)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("lab is listening", "url", base, "state_dir", c.StateDir, "demo", c.Demo, "machine", c.Machine)
	if ready != nil {
		ready(addr)
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; runs keep running")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func isLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// startDemoModel starts the scripted Messages API on loopback and points
// runs at it, with a private HOME whose Claude Code setup is pre-seeded.
func startDemoModel(c serveConfig, env map[string]string, log *slog.Logger) (func(), error) {
	fake := fakeclaudeapi.New(fakeclaudeapi.Options{})
	if err := startAtSavedAddr(fake, c.StateDir, demoModelAddrFile, log); err != nil {
		return nil, err
	}
	const key = "sk-lab-demo-key"
	if err := claude.SeedHome(c.Home, key); err != nil {
		fake.Close()
		return nil, fmt.Errorf("demo home: %w", err)
	}
	env["HOME"] = c.Home
	env["ANTHROPIC_BASE_URL"] = fake.URL()
	env["ANTHROPIC_API_KEY"] = key
	env["DISABLE_TELEMETRY"] = "1"
	env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"
	log.Info("demo: runs talk to the built-in scripted model", "url", fake.URL(), "home", c.Home)
	if c.DemoModels.Claude != nil {
		c.DemoModels.Claude(fake)
	}
	return func() { fake.Close() }, nil
}

// announceSetup prints the one-time setup link while no password is set.
func announceSetup(ctx context.Context, db *store.DB, base string, log *slog.Logger) error {
	has, err := db.HasPassword(ctx)
	if err != nil {
		return err
	}
	if has {
		return nil
	}
	token, err := db.CreateSetupToken(ctx)
	if err != nil {
		return err
	}
	log.Warn("no password is set yet: open the setup link to choose one (or run `lab passwd`)", "url", httpapi.SetupURL(base, token))
	return nil
}

// publishers fans the chat layer's events out to every listener.
type publishers []chat.Publisher

func (ps publishers) Publish(e conv.Event) {
	for _, p := range ps {
		p.Publish(e)
	}
}

// sessionsAdapter serves the API's history from the chat library.
type sessionsAdapter struct{ lib *chat.Library }

func (a sessionsAdapter) List(ctx context.Context, q httpapi.SessionQuery) (httpapi.SessionList, error) {
	l, err := a.lib.List(ctx, chat.SessionFilter{Q: q.Query, Offset: q.Offset, Limit: q.Limit})
	if err != nil {
		return httpapi.SessionList{}, err
	}
	return httpapi.SessionList{Sessions: l.Sessions, Total: l.Total, HasMore: l.NextOffset > 0}, nil
}

func (a sessionsAdapter) Get(ctx context.Context, id string) (conv.Session, error) {
	return a.lib.Session(ctx, id)
}

func (a sessionsAdapter) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	return a.lib.Messages(ctx, id, q)
}

// hostList collects comma-separated host names.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }
func (h *hostList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*h = append(*h, p)
		}
	}
	return nil
}

// proxyList collects comma-separated proxy addresses and networks.
type proxyList []netip.Prefix

func (p *proxyList) String() string {
	var s []string
	for _, x := range *p {
		s = append(s, x.String())
	}
	return strings.Join(s, ",")
}

func (p *proxyList) Set(v string) error {
	got, err := httpapi.ParseTrustedProxies(v)
	*p = append(*p, got...)
	return err
}

// explicitStateDir reports whether the operator chose the state folder.
func explicitStateDir(fs *flag.FlagSet, env Env) bool {
	return env.Getenv("LAB_STATE_DIR") != "" || explicitFlag(fs, "state-dir")
}

// explicitFlag reports whether flag name was given on the command line.
func explicitFlag(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// runnerAdapter fits the runs service to what the chat layer drives.
type runnerAdapter struct{ rs *runs.Service }

func (a runnerAdapter) List(ctx context.Context) ([]conv.Run, error) { return a.rs.List(ctx) }
func (a runnerAdapter) Get(ctx context.Context, id string) (conv.Run, error) {
	return a.rs.Get(ctx, id)
}
func (a runnerAdapter) Start(ctx context.Context, req conv.StartRequest) (conv.Run, error) {
	return a.rs.Start(ctx, req)
}
func (a runnerAdapter) Stop(ctx context.Context, id string) error {
	_, err := a.rs.Stop(ctx, id)
	return err
}
func (a runnerAdapter) Sweep(ctx context.Context) ([]string, error) { return a.rs.Sweep(ctx) }
func (a runnerAdapter) Side(ctx context.Context, id string) (agent.Side, error) {
	return a.rs.Side(ctx, id)
}

func (a runnerAdapter) External(ctx context.Context) ([]conv.ExternalSession, error) {
	return a.rs.External(ctx)
}
func (a runnerAdapter) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	return a.rs.Attach(ctx, provider, pid)
}
func (a runnerAdapter) MarkSeen(ctx context.Context, id string, at time.Time) error {
	return a.rs.MarkSeen(ctx, id, at)
}

// Pane types into the run's tmux pane (an attached run's pane is checked
// to still host its process first). A run that ended, or an attached run
// lab can only follow, gets a pane that refuses every key, so an action
// fails cleanly.
func (a runnerAdapter) Pane(id string) chat.Pane {
	t, err := a.rs.Terminal(context.Background(), id)
	if err != nil {
		return deadPane{err}
	}
	return t
}

type deadPane struct{ err error }

func (d deadPane) SendKeys(context.Context, ...string) error    { return d.err }
func (d deadPane) Paste(context.Context, string) error          { return d.err }
func (d deadPane) Type(context.Context, string) error           { return d.err }
func (d deadPane) Watch(context.Context) (*tmux.Watcher, error) { return nil, d.err }
func (d deadPane) Capture(context.Context) (string, error)      { return "", d.err }

// sessionOwners maps each session id to the run that last had it.
func sessionOwners(ctx context.Context, db *store.DB) map[string]chat.Owner {
	m, err := db.SessionOwners(ctx)
	if err != nil {
		return nil
	}
	out := make(map[string]chat.Owner, len(m))
	for s, o := range m {
		out[s] = chat.Owner{RunID: o.RunID, Live: o.Live}
	}
	return out
}

// registerGauges exposes runs by state and the live tailers' lag.
func registerGauges(api *httpapi.Server, svc *chat.Service) {
	reg := api.Registry()
	reg.MustRegister(runsCollector{svc})
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "lab_tailer_lag_seconds", Help: "The longest time since a live run's tailer last caught up.",
	}, func() float64 {
		var most time.Duration
		for _, d := range svc.Lag() {
			most = max(most, d)
		}
		return most.Seconds()
	}))
}

// runsCollector counts runs by state with one List per scrape.
type runsCollector struct{ svc *chat.Service }

var runsDesc = prometheus.NewDesc("lab_runs", "Runs by conversational state.", []string{"state"}, nil)

func (c runsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- runsDesc }

func (c runsCollector) Collect(ch chan<- prometheus.Metric) {
	counts := map[conv.State]int{}
	if runs, err := c.svc.List(context.Background()); err == nil {
		for _, r := range runs {
			counts[r.State]++
		}
	}
	for _, st := range []conv.State{conv.StateWorking, conv.StateQuestion, conv.StateNeedsInput, conv.StateIdle, conv.StateEnded} {
		ch <- prometheus.MustNewConstMetric(runsDesc, prometheus.GaugeValue, float64(counts[st]), string(st))
	}
}
