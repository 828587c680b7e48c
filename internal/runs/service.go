// Package runs is lab's run lifecycle: it starts Claude Code in a tmux
// session on lab's private socket with per-run hook settings, records the
// run in SQLite, stops it, marks runs whose session died as ended, and on
// start-up adopts the runs still alive, so a restart of lab never kills or
// loses one. The CLI's own files stay the source of truth: the session and
// transcript come from the run's SessionStart hook spool.
package runs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"lab/internal/claude"
	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/tmux"
)

// Service manages runs. It is safe for concurrent use.
type Service struct {
	db   *store.DB
	cfg  Config
	tmux *tmux.Server
	log  *slog.Logger
	euid int

	mu       sync.Mutex
	spools   map[string]*claude.Spool // by run id
	pids     map[string]int           // pane pid by run id, stable for a session's life
	versions map[versionNote]bool     // binaries and versions already logged (see noteVersion)
}

// New returns a service over db with cfg (zero fields defaulted). It
// creates the state dir but touches no run: call Adopt at start-up.
func New(db *store.DB, cfg Config) (*Service, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(cfg.StateDir, "runs"), 0o700); err != nil {
		return nil, fmt.Errorf("runs: state dir: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(cfg.TmuxSocket), 0o700); err != nil {
		return nil, fmt.Errorf("runs: tmux socket dir: %w", err)
	}
	return &Service{
		db: db, cfg: cfg, tmux: tmux.New(cfg.TmuxSocket), log: cfg.Logger, euid: os.Geteuid(),
		spools: map[string]*claude.Spool{}, pids: map[string]int{}, versions: map[versionNote]bool{},
	}, nil
}

// Tmux is the server on lab's socket, for the layers that type into runs.
func (s *Service) Tmux() *tmux.Server { return s.tmux }

// Config is the effective configuration.
func (s *Service) Config() Config { return s.cfg }

// Start validates req, starts the CLI for it in a new tmux session and
// records the run. It returns before the CLI is up; the session id and
// transcript appear on the run once its SessionStart hook has fired.
// Returns conv.EInvalid (or ETooLarge) for bad input, conv.EUnavailable
// when the claude binary or tmux is missing or broken.
func (s *Service) Start(ctx context.Context, req conv.StartRequest) (conv.Run, error) {
	req, err := validate(req, s.euid)
	if err != nil {
		return conv.Run{}, err
	}
	bin, err := claude.ResolveBin(s.cfg.ClaudeBin)
	if err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "the Claude Code CLI is not available ("+s.cfg.ClaudeBin+"): install it (scripts/install-claude.sh) or configure its path")
	}
	version, err := s.cliVersion(ctx, bin)
	if err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "the Claude Code CLI at "+bin+" does not run")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return conv.Run{}, conv.Errorf(conv.EUnavailable, "tmux is not installed")
	}

	id := newID()
	rec := store.RunRecord{
		ID: id, Cwd: req.Cwd, Prompt: req.Prompt, Model: req.Model, PermissionMode: req.PermissionMode,
		CLIVersion: version, ClaudeBin: bin, TmuxSession: "lab-" + id,
		RunDir: filepath.Join(s.cfg.StateDir, "runs", id), StartedAt: s.cfg.Now(),
	}
	rec.Title, rec.TitleAuto = promptTitle(req.Prompt), false
	if rec.Title == "" {
		rec.Title, rec.TitleAuto = filepath.Base(req.Cwd), true
	}
	settings := filepath.Join(rec.RunDir, "settings.json")
	if err := os.MkdirAll(rec.RunDir, 0o700); err != nil {
		return conv.Run{}, conv.Wrap(conv.EInternal, err, "create the run directory")
	}
	if err := claude.WriteHookSettings(settings, filepath.Join(rec.RunDir, "spool")); err != nil {
		return conv.Run{}, conv.Wrap(conv.EInternal, err, "write the run's hook settings")
	}
	if s.cfg.SeedTrust {
		if err := s.trust(req.Cwd); err != nil {
			return conv.Run{}, conv.Wrap(conv.EInternal, err, "could not mark "+req.Cwd+" as a trusted folder in ~/.claude.json")
		}
	}
	// Record first: a lab that dies right after the spawn must still know
	// the session it started.
	if err := s.db.CreateRun(ctx, rec); err != nil {
		return conv.Run{}, err
	}
	argv := claude.SpawnArgv(claude.SpawnOptions{Bin: bin, Settings: settings, Model: req.Model, PermissionMode: req.PermissionMode, Prompt: req.Prompt})
	err = s.newSession(ctx, tmux.SessionOptions{
		Name: rec.TmuxSession, Dir: req.Cwd, Width: s.cfg.Width, Height: s.cfg.Height, Env: s.cfg.ExtraEnv, Argv: argv,
	})
	if err != nil {
		s.db.EndRun(context.WithoutCancel(ctx), id, s.cfg.Now(), "spawn failed: "+err.Error())
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "could not start the CLI in tmux")
	}
	s.log.Info("run started", "run", id, "cwd", req.Cwd, "mode", req.PermissionMode, "model", req.Model, "cli", version)
	s.changed(id)
	return s.Get(ctx, id)
}

// newSession creates the run's session, through retryTmux.
func (s *Service) newSession(ctx context.Context, o tmux.SessionOptions) error {
	return retryTmux(ctx, func() error { return s.tmux.NewSession(ctx, o) })
}

// listSessions lists the sessions on the socket, through retryTmux.
func (s *Service) listSessions(ctx context.Context) ([]string, error) {
	var names []string
	err := retryTmux(ctx, func() (err error) {
		names, err = s.tmux.ListSessions(ctx)
		return err
	})
	return names, err
}

// retryTmux runs op again while tmux answers "server exited unexpectedly":
// tmux exits when its last session ends, and a command reaching it in that
// instant gets this error although the next one would work (or find no
// server, which is a clean answer).
func retryTmux(ctx context.Context, op func() error) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = op(); err == nil || !strings.Contains(err.Error(), "server exited unexpectedly") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
	return err
}

// trust seeds folder trust for cwd, under both its given and its resolved
// path: the CLI keys projects by the directory it finds itself in.
func (s *Service) trust(cwd string) error {
	path := claude.ClaudeJSONPath(s.cfg.cliHome())
	if err := claude.TrustFolder(path, cwd); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil && real != cwd {
		return claude.TrustFolder(path, real)
	}
	return nil
}

// Stop ends the run's CLI (its tmux session) and marks the run ended.
// Stopping an ended run returns it unchanged. Returns conv.ENotFound.
func (s *Service) Stop(ctx context.Context, id string) (conv.Run, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return conv.Run{}, err
	}
	if !rec.Live() {
		return s.view(ctx, rec), nil
	}
	if err := retryTmux(ctx, func() error { return s.tmux.KillSession(ctx, rec.TmuxSession) }); err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "could not end the run's tmux session")
	}
	if _, err := s.db.EndRun(ctx, id, s.cfg.Now(), "stopped"); err != nil {
		return conv.Run{}, err
	}
	s.forget(id)
	s.log.Info("run stopped", "run", id)
	s.changed(id)
	return s.Get(ctx, id)
}

// Get returns the run, refreshed from its spool. Returns conv.ENotFound.
func (s *Service) Get(ctx context.Context, id string) (conv.Run, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return conv.Run{}, err
	}
	return s.view(ctx, rec), nil
}

// List returns every run, newest first.
func (s *Service) List(ctx context.Context) ([]conv.Run, error) {
	recs, err := s.db.ListRuns(ctx, false)
	if err != nil {
		return nil, err
	}
	out := make([]conv.Run, 0, len(recs))
	for _, rec := range recs {
		out = append(out, s.view(ctx, rec))
	}
	return out, nil
}

// Record returns the run's stored record (tmux session, run dir, CLI
// version…) for the layers that drive it. Returns conv.ENotFound.
func (s *Service) Record(ctx context.Context, id string) (store.RunRecord, error) {
	return s.db.GetRun(ctx, id)
}

// Spool returns the reader of the run's hook spool, shared so that
// retirements made through it stick. Returns conv.ENotFound.
func (s *Service) Spool(ctx context.Context, id string) (*claude.Spool, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.spool(rec), nil
}

func (s *Service) spool(rec store.RunRecord) *claude.Spool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, ok := s.spools[rec.ID]
	if !ok {
		sp = claude.OpenSpool(filepath.Join(rec.RunDir, "spool"))
		s.spools[rec.ID] = sp
	}
	return sp
}

// Target returns the tmux target to type into for a live run: its
// session matched exactly ("=lab-<id>:"), since tmux otherwise resolves a
// missing session name to any session it prefixes. Returns
// conv.ENotFound, or conv.EConflict when the run has ended.
func (s *Service) Target(ctx context.Context, id string) (string, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return "", err
	}
	if !rec.Live() {
		return "", conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	return paneTarget(rec.TmuxSession), nil
}

// paneTarget is the exact tmux target of a session's active pane.
func paneTarget(session string) string { return "=" + session + ":" }

// forget drops per-run caches of an ended run.
func (s *Service) forget(id string) {
	s.mu.Lock()
	delete(s.pids, id)
	s.mu.Unlock()
}

func (s *Service) changed(id string) {
	if s.cfg.OnChange != nil {
		s.cfg.OnChange(id)
	}
}

// newID returns a random run id: 12 hex digits.
func newID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// promptTitle is the first non-empty line of a prompt, cut to 80 runes.
func promptTitle(prompt string) string {
	for _, line := range strings.Split(prompt, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > 80 {
			line = string([]rune(line)[:79]) + "…"
		}
		return line
	}
	return ""
}
