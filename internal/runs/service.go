// Package runs is lab's run lifecycle: it starts an agent CLI (through its
// provider, internal/agent) in a tmux session on lab's private socket with
// per-run hook settings, records the run in SQLite, stops it, marks runs
// whose session died as ended, and on start-up adopts the runs still
// alive, so a restart of lab never kills or loses one. The CLI's own files
// stay the source of truth: the session and transcript come from the
// run's side channel (its hook spool). A run may work in a git worktree
// of its own (worktree.go), which it commits and removes once ended.
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

	"lab/internal/agent"
	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/tmux"
	"lab/internal/uploads"
)

// Service manages runs. It is safe for concurrent use.
type Service struct {
	db   *store.DB
	cfg  Config
	tmux *tmux.Server
	log  *slog.Logger
	euid int

	mu       sync.Mutex
	sides    map[string]agent.Side // by run id
	versions map[versionNote]bool  // binaries and versions already logged (see noteVersion)
	// starting holds the runs recorded but whose tmux session may not
	// exist yet: Sweep must not take them for dead.
	starting map[string]bool
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
		sides: map[string]agent.Side{}, versions: map[versionNote]bool{},
	}, nil
}

// Tmux is the server on lab's socket, for the layers that type into runs.
func (s *Service) Tmux() *tmux.Server { return s.tmux }

// Config is the effective configuration.
func (s *Service) Config() Config { return s.cfg }

// Start validates req, starts the CLI of its provider for it in a new tmux
// session and records the run. It returns before the CLI is up; the
// session id and transcript appear on the run once its side channel has
// them. Returns conv.EInvalid (or ETooLarge) for bad input,
// conv.EUnavailable when the CLI or tmux is missing or broken.
func (s *Service) Start(ctx context.Context, req conv.StartRequest) (_ conv.Run, err error) {
	req, err = validate(req, s.cfg.UserHome)
	if err != nil {
		return conv.Run{}, err
	}
	if len(req.Uploads) > 0 && (req.Resume != "" || s.cfg.Uploads == nil) {
		if s.cfg.Uploads == nil {
			return conv.Run{}, conv.Errorf(conv.EInvalid, "this lab takes no uploads")
		}
		return conv.Run{}, conv.Errorf(conv.EInvalid, "a resumed run takes files with a reply once it is up, not with its start")
	}
	ag, err := s.cfg.agentFor(req.Provider)
	if err != nil {
		return conv.Run{}, err
	}
	p := ag.Provider
	info := p.Info()
	req.Provider = info.Name
	if err := p.CheckStart(req, s.euid); err != nil {
		return conv.Run{}, err
	}
	var resumed string // the resumed session's transcript
	if req.Resume != "" {
		if err := s.checkResume(ctx, info, req.Resume); err != nil {
			return conv.Run{}, err
		}
		resumed = s.resumedTranscript(p, req.Resume)
	}
	bin, err := p.ResolveBin(ag.Bin)
	if err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "the "+info.Label+" CLI is not available: "+err.Error())
	}
	version, err := p.Version(ctx, bin)
	if err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "the "+info.Label+" CLI at "+bin+" does not run")
	}
	s.noteVersion(p, bin, version)
	if _, err := exec.LookPath("tmux"); err != nil {
		return conv.Run{}, conv.Errorf(conv.EUnavailable, "tmux is not installed")
	}

	id := newID()
	// A title given is kept whole (the API bounds it); only one made from
	// the prompt is cut.
	title := strings.TrimSpace(req.Title)
	if title == "" {
		title = promptTitle(req.Prompt)
	}
	wt, inWorktree := s.worktreeFor(ctx, req.Cwd)
	if req.Worktree {
		if req.Resume != "" {
			return conv.Run{}, conv.Errorf(conv.EInvalid, "a resumed run works where its session did: ask for a worktree with a new run")
		}
		if inWorktree {
			return conv.Run{}, conv.Errorf(conv.EInvalid, "%s is already in the worktree of run %s (branch %s)", req.Cwd, wt.RunID, wt.Branch)
		}
		var dir string
		if wt, dir, err = s.newWorktree(ctx, id, req.Cwd, title); err != nil {
			return conv.Run{}, err
		}
		inWorktree, req.Cwd = true, dir
		defer func() {
			if err != nil { // the run never started: its worktree goes
				s.dropWorktree(wt.Repo, wt.Path, wt.Branch)
				s.db.MarkWorktreeRemoved(context.WithoutCancel(ctx), wt.Path, s.cfg.Now())
			}
		}()
	}
	rec := store.RunRecord{
		ID: id, Provider: info.Name, Cwd: req.Cwd, Prompt: req.Prompt, Model: req.Model, PermissionMode: req.PermissionMode,
		CLIVersion: version, Bin: bin, TmuxSession: "lab-" + id,
		RunDir: filepath.Join(s.cfg.StateDir, "runs", id), StartedAt: s.cfg.Now(),
	}
	// A resumed session keeps its id (facts: --resume appends to the same
	// transcript); recording it now makes a second resume of it a conflict
	// before the CLI is even up.
	rec.SessionID, rec.TranscriptPath = req.Resume, resumed
	rec.Title, rec.TitleAuto = title, false
	if rec.Title == "" {
		rec.Title, rec.TitleAuto = filepath.Base(req.Cwd), true
	}
	if err := os.MkdirAll(rec.RunDir, 0o700); err != nil {
		return conv.Run{}, conv.Wrap(conv.EInternal, err, "create the run directory")
	}
	upDir := uploads.RunDir(rec.RunDir)
	if req, err = s.claimUploads(req, upDir); err != nil {
		os.RemoveAll(rec.RunDir) // nothing of the run was started or recorded
		return conv.Run{}, err
	}
	// Until the run is recorded, a failure gives the claimed uploads back
	// to staging (a retry finds them) and leaves no run folder.
	unclaim := func() {
		if s.cfg.Uploads != nil {
			s.cfg.Uploads.Return(req.Files)
		}
		os.RemoveAll(rec.RunDir)
	}
	cmd, err := p.Prepare(ctx, agent.Launch{Bin: bin, RunDir: rec.RunDir, Home: s.cfg.cliHome(), Cwd: req.Cwd, SeedTrust: s.cfg.SeedTrust, Uploads: upDir, Request: req})
	if err != nil {
		unclaim()
		return conv.Run{}, err
	}
	// Record first: a lab that dies right after the spawn must still know
	// the session it started.
	s.mu.Lock()
	if s.starting == nil {
		s.starting = map[string]bool{}
	}
	s.starting[id] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.starting, id)
		s.mu.Unlock()
	}()
	if err := s.db.CreateRun(ctx, rec); err != nil {
		unclaim()
		return conv.Run{}, err
	}
	if resumed != "" {
		// History shows the session as this run's from now on.
		if err := s.db.SetRunSession(ctx, id, rec.SessionID, resumed, rec.StartedAt); err != nil {
			return conv.Run{}, err
		}
	}
	if inWorktree {
		wt.RunID = id
		if err := s.db.SetWorktree(ctx, wt); err != nil {
			return conv.Run{}, err
		}
	}
	if s.cfg.BeforeSpawn != nil {
		s.cfg.BeforeSpawn(ctx, rec)
	}
	env := make(map[string]string, len(s.cfg.ExtraEnv)+len(cmd.Env))
	for k, v := range s.cfg.ExtraEnv {
		env[k] = v
	}
	for k, v := range cmd.Env {
		env[k] = v
	}
	err = s.newSession(ctx, tmux.SessionOptions{
		Name: rec.TmuxSession, Dir: req.Cwd, Width: s.cfg.Width, Height: s.cfg.Height, Env: env, Argv: cmd.Argv,
	})
	if err != nil {
		s.db.EndRun(context.WithoutCancel(ctx), id, s.cfg.Now(), "spawn failed: "+err.Error())
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "could not start the CLI in tmux")
	}
	s.log.Info("run started", "run", id, "provider", info.Name, "cwd", req.Cwd, "mode", req.PermissionMode, "model", req.Model, "cli", version)
	switch {
	case s.cfg.SeedTrust:
		go s.watchStart(rec, p.NewDriver(version), cmd.Opening)
	case len(cmd.Opening) > 0:
		go s.open(rec, cmd.Opening)
	}
	s.changed(id)
	return s.Get(ctx, id)
}

// claimUploads makes the run's uploads folder (the agent may read it
// whatever its working folder) and moves the start request's staged
// uploads into it: the images go to the provider as req.Files, every
// other file is named in the prompt for the agent to read.
func (s *Service) claimUploads(req conv.StartRequest, dir string) (conv.StartRequest, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return req, conv.Wrap(conv.EInternal, err, "create the run's uploads folder")
	}
	if len(req.Uploads) == 0 {
		return req, nil
	}
	files, err := s.cfg.Uploads.Claim(req.Uploads, dir)
	if err != nil {
		return req, err
	}
	var others []string
	for _, f := range files {
		if !f.Image() {
			others = append(others, f.Path)
		}
	}
	req.Files = files
	req.Prompt = conv.WithFileRefs(req.Prompt, others)
	return req, nil
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

// Stop ends the run's CLI (its tmux session) and marks the run ended; an
// attached run is only detached (end reason "detached"), its process left
// running. Stopping an ended run returns it unchanged. Returns
// conv.ENotFound.
func (s *Service) Stop(ctx context.Context, id string) (conv.Run, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return conv.Run{}, err
	}
	if !rec.Live() {
		return s.view(ctx, rec), nil
	}
	if rec.Attached() {
		// Lab never ends a process it did not start.
		return s.detach(ctx, rec)
	}
	pid, _ := s.tmux.PanePID(ctx, paneTarget(rec.TmuxSession))
	if err := retryTmux(ctx, func() error { return s.tmux.KillSession(ctx, rec.TmuxSession) }); err != nil {
		return conv.Run{}, conv.Wrap(conv.EUnavailable, err, "could not end the run's tmux session")
	}
	// The CLI rewrites its config as it exits; a run started right after
	// must not race that write (it could drop the new run's trust entry).
	waitExit(ctx, pid, stopWait)
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
	run := s.view(ctx, rec)
	if w, ok, err := s.db.RunWorktree(ctx, id); err == nil && ok {
		run.Worktree = worktreeView(w)
	}
	return run, nil
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
	s.dressWorktrees(ctx, out)
	return out, nil
}

// Record returns the run's stored record (tmux session, run dir, CLI
// version…) for the layers that drive it. Returns conv.ENotFound.
func (s *Service) Record(ctx context.Context, id string) (store.RunRecord, error) {
	return s.db.GetRun(ctx, id)
}

// Side returns the reader of the run's side channel (its hook spool),
// shared so that retirements made through it stick. Returns
// conv.ENotFound, or conv.EUnavailable for a provider lab does not run.
func (s *Service) Side(ctx context.Context, id string) (agent.Side, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.side(rec)
}

func (s *Service) side(rec store.RunRecord) (agent.Side, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sd, ok := s.sides[rec.ID]
	if !ok {
		ag, err := s.cfg.agentFor(rec.Provider)
		if err != nil {
			return nil, conv.Wrap(conv.EUnavailable, err, "run "+rec.ID+" uses a provider this lab does not run")
		}
		if !rec.Attached() {
			sd = ag.Provider.OpenSide(rec.RunDir)
		} else if at, ok := ag.Provider.(agent.Attacher); ok {
			// No hook spool: the CLI's own registry is the side channel.
			sd = at.OpenExternal(s.cfg.cliHome(), rec.Attach.PID)
		} else {
			return nil, conv.Errorf(conv.EUnavailable, "run %s is attached to a %s session, which lab cannot follow", rec.ID, ag.Provider.Info().Label)
		}
		s.sides[rec.ID] = sd
	}
	return sd, nil
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
// startingNow copies the set of runs Start is between recording and
// giving a session.
func (s *Service) startingNow() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]bool, len(s.starting))
	for id := range s.starting {
		out[id] = true
	}
	return out
}

func (s *Service) forget(id string) {
	s.mu.Lock()
	delete(s.sides, id)
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
