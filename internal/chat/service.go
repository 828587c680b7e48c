package chat

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Runner is the run lifecycle (internal/runs) as the chat layer uses it.
type Runner interface {
	// List returns every run, newest first.
	List(ctx context.Context) ([]conv.Run, error)
	// Get returns one run; ENotFound when there is none.
	Get(ctx context.Context, id string) (conv.Run, error)
	// Start starts a run; EInvalid for bad input, EUnavailable when the
	// CLI cannot be started.
	Start(ctx context.Context, req conv.StartRequest) (conv.Run, error)
	// Stop ends a run's process and marks it ended.
	Stop(ctx context.Context, id string) error
	// Sweep marks ended the runs whose process is gone and returns their ids.
	Sweep(ctx context.Context) ([]string, error)
	// Side returns the reader of the run's side channel (its hook spool),
	// shared by everyone who reads it so retirements stick.
	Side(ctx context.Context, id string) (agent.Side, error)
	// Pane returns the run's terminal for keystrokes.
	Pane(id string) Pane
	// External lists the CLI processes lab did not start; Attach makes a
	// run follow one of them (ENotFound, EConflict when already followed).
	External(ctx context.Context) ([]conv.ExternalSession, error)
	Attach(ctx context.Context, provider string, pid int) (conv.Run, error)
	// MarkSeen records how far the operator has read a run (never moving
	// back); ENotFound.
	MarkSeen(ctx context.Context, id string, at time.Time) error
}

// Actions act on one running run: they are the answer recipes, replies and
// interrupts, serialised per run.
type Actions interface {
	Answer(ctx context.Context, a conv.Answer) error
	Reply(ctx context.Context, text string, files ...conv.Upload) error
	Interrupt(ctx context.Context) error
	// Terminal types the operator's input into the terminal view.
	Terminal(ctx context.Context, in conv.TerminalInput) error
	// Command types a slash command line (name is its command) at the
	// prompt; Switch plays the moves of a mode or model switch.
	Command(ctx context.Context, name, line string) error
	Switch(ctx context.Context, what string, plan func(capture string) ([]agent.Move, error)) error
}

// ActionsFactory builds the Actions of a run whose CLI drv drives. pending
// returns the run's current pending dialog, freshly re-read.
type ActionsFactory func(run conv.Run, drv agent.Driver, pane Pane, pending func(ctx context.Context) (*conv.Dialog, error)) Actions

// Service is the live side of lab: every running run's chat kept current
// and published, actions routed to the right run, and ended runs and
// history served from cached folds. It implements the API's Runs.
type Service struct {
	runs      Runner
	providers map[string]agent.Provider
	lib       *Library
	pub       Publisher
	log       *slog.Logger
	actions   ActionsFactory
	intents   func(toolID string) (*conv.Outcome, bool)
	onTurn    TurnFunc
	partials  PartialStore
	home      string // the HOME runs get, where the operator's own commands are
	uploads   UploadsFunc

	mu      sync.Mutex
	lives   map[string]*live
	drivers map[string]agent.Driver // by run id, for followed runs
	acts    map[string]Actions

	stop chan struct{}
	done chan struct{}
}

// ServiceConfig wires a Service.
type ServiceConfig struct {
	Runs Runner
	// Providers are the agent CLIs runs may use, by conv.Run.Provider.
	Providers []agent.Provider
	Library   *Library
	Publish   Publisher
	Logger    *slog.Logger
	Actions   ActionsFactory
	// Intents looks up what lab answered for a dialog; may be nil.
	Intents func(toolID string) (*conv.Outcome, bool)
	// SweepEvery is how often dead runs are looked for; default 2 s.
	SweepEvery time.Duration
	// OnTurn, when set, hears where each followed run's turns stand (the
	// snapshots of a run's folder are taken as its turns end).
	OnTurn TurnFunc
	// Partials keeps lab's copies of words a turn drew but its CLI never
	// recorded (livetext.go); nil keeps them in memory only.
	Partials PartialStore
	// Home is the HOME runs get: where a CLI finds the operator's own
	// slash commands.
	Home string
	// Uploads finds a run's uploads by id for a reply; nil: replies take
	// none.
	Uploads UploadsFunc
}

// UploadsFunc returns the uploads of run id named by ids, in order:
// EInvalid for an id the run has no upload of.
type UploadsFunc func(ctx context.Context, runID string, ids []string) ([]conv.Upload, error)

// NewService starts following every running run and sweeping for ended
// ones. Close stops it; runs keep running.
func NewService(ctx context.Context, cfg ServiceConfig) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SweepEvery <= 0 {
		cfg.SweepEvery = 2 * time.Second
	}
	s := &Service{
		runs: cfg.Runs, providers: map[string]agent.Provider{}, lib: cfg.Library, pub: cfg.Publish, log: cfg.Logger,
		actions: cfg.Actions, intents: cfg.Intents, onTurn: cfg.OnTurn, partials: cfg.Partials, home: cfg.Home, uploads: cfg.Uploads,
		lives: map[string]*live{}, drivers: map[string]agent.Driver{}, acts: map[string]Actions{},
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	for _, p := range cfg.Providers {
		s.providers[p.Info().Name] = p
	}
	runs, err := s.runs.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		if r.State != conv.StateEnded {
			s.follow(r, false)
		}
	}
	go s.sweepLoop(cfg.SweepEvery)
	return s, nil
}

// Close stops following runs (the runs themselves keep running).
func (s *Service) Close() {
	select {
	case <-s.stop:
		return
	default:
	}
	close(s.stop)
	<-s.done
	s.mu.Lock()
	lives := s.lives
	s.lives = map[string]*live{}
	s.mu.Unlock()
	for _, l := range lives {
		l.close()
	}
}

// follow starts the live view of r; fresh says its CLI was started just
// now (see liveOpts).
func (s *Service) follow(r conv.Run, fresh bool) {
	p, ok := s.providers[r.Provider]
	if !ok {
		s.log.Warn("follow run: unknown provider", "run", r.ID, "provider", r.Provider)
		return
	}
	side, err := s.runs.Side(context.Background(), r.ID)
	if err != nil {
		s.log.Warn("follow run", "run", r.ID, "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.lives[r.ID]; ok {
		return
	}
	drv := p.NewDriver(r.CLIVersion)
	l := newLive(r.ID, side, p.NewFold, s.runs.Pane(r.ID), drv, s.intents, s.pub, s.log, liveOpts{transcript: r.TranscriptPath, fresh: fresh, partials: s.partials})
	if s.onTurn != nil {
		l.listenTurns(r.StartedAt, s.onTurn)
	}
	s.lives[r.ID] = l
	s.drivers[r.ID] = drv
}

func (s *Service) unfollow(id string) {
	s.mu.Lock()
	l := s.lives[id]
	delete(s.lives, id)
	delete(s.drivers, id)
	delete(s.acts, id)
	s.mu.Unlock()
	if l != nil {
		l.close()
	}
}

func (s *Service) liveOf(id string) *live {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lives[id]
}

func (s *Service) sweepLoop(every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Sweep(context.Background())
		}
	}
}

// Sweep marks ended the runs whose process is gone and stops following
// them, publishing the change.
func (s *Service) Sweep(ctx context.Context) {
	ended, err := s.runs.Sweep(ctx)
	if err != nil {
		s.log.Warn("sweep runs", "err", err)
		return
	}
	for _, id := range ended {
		s.ended(id)
	}
}

func (s *Service) ended(id string) {
	if l := s.liveOf(id); l != nil {
		l.endTurns()
	}
	s.unfollow(id)
	if s.pub != nil {
		s.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: id, State: conv.StateEnded})
		s.pub.Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: id, State: conv.StateEnded})
	}
}

// List returns every run with its live state and pending flag.
func (s *Service) List(ctx context.Context) ([]conv.Run, error) {
	runs, err := s.runs.List(ctx)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		s.overlay(&runs[i])
	}
	return runs, nil
}

// Get returns one run with its live state and its usage (an ended run's
// from its transcript's cached fold).
func (s *Service) Get(ctx context.Context, id string) (conv.Run, error) {
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return r, err
	}
	s.overlay(&r)
	if r.Usage == nil && r.State == conv.StateEnded && s.lib != nil {
		if path := s.transcriptOf(ctx, r); path != "" {
			r.Usage, _ = s.lib.UsageOf(r.Provider, path)
		}
	}
	return r, nil
}

func (s *Service) overlay(r *conv.Run) {
	// Attention follows whatever state and activity the run ends up with.
	defer func() { r.Attention = conv.AttentionOf(r.State, r.Pending, conv.SeenSince(r.SeenAt, r.LastActivity)) }()
	if r.State == conv.StateEnded {
		r.Pending = false
		r.LastActivity = r.EndedAt
		return
	}
	if l := s.liveOf(r.ID); l != nil {
		l.overlayRun(r)
	}
}

// Start starts a run and follows it.
func (s *Service) Start(ctx context.Context, req conv.StartRequest) (conv.Run, error) {
	r, err := s.runs.Start(ctx, req)
	if err != nil {
		return r, err
	}
	s.follow(r, true)
	s.overlay(&r)
	if s.pub != nil {
		s.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: r.ID, State: r.State})
	}
	return r, nil
}

// Stop ends a run.
func (s *Service) Stop(ctx context.Context, id string) error {
	if _, err := s.runs.Get(ctx, id); err != nil {
		return err
	}
	if err := s.runs.Stop(ctx, id); err != nil {
		return err
	}
	s.ended(id)
	return nil
}

// Messages returns a window of a run's chat: live for a running run,
// from the cached fold of its transcript once it ended.
//
// A followed run's page comes from its live view alone: no store read, no
// side channel read, no lock a refresh, a start, a sweep or an action
// holds, so reads stay quick however busy the machine is.
func (s *Service) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	if l := s.liveOf(id); l != nil {
		return l.snapshot(q), nil
	}
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return conv.Page{}, err
	}
	path := s.transcriptOf(ctx, r)
	if path == "" {
		return conv.Page{State: r.State, Messages: []conv.Message{}}, nil
	}
	p, err := s.lib.PageOf(r.Provider, path, q)
	if err != nil {
		return p, err
	}
	p.State, p.PendingDialog = conv.StateEnded, nil
	if s.partials != nil {
		if all, err := s.partials.Partials(ctx, path); err == nil {
			p.Partials = partialsIn(all, q, p)
		}
	}
	return p, nil
}

// Watch notes that a client shows the run's chat now: while it works, the
// words its CLI draws are read and served for a while (livetext.go).
func (s *Service) Watch(id string) {
	if l := s.liveOf(id); l != nil {
		l.watch(time.Now())
	}
}

// actionsOf returns the Actions of a running run; EConflict once it ended.
func (s *Service) actionsOf(ctx context.Context, id string) (Actions, error) {
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	l := s.liveOf(id)
	if r.State == conv.StateEnded || l == nil {
		return nil, conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	if r.Attached != nil && r.Attached.ReadOnly != "" {
		return nil, conv.Errorf(conv.EConflict, "lab can only follow this session: %s", r.Attached.ReadOnly)
	}
	s.mu.Lock()
	a, ok := s.acts[id]
	drv, live := s.drivers[id]
	s.mu.Unlock()
	if ok {
		return a, nil
	}
	if !live {
		return nil, conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	pending := func(context.Context) (*conv.Dialog, error) {
		d, _ := l.current()
		return d, nil
	}
	// Built outside the lock (the factory may read the store), then kept
	// unless another request kept one meanwhile: one actor per run, so
	// actions on it never interleave.
	a = s.actions(r, drv, s.runs.Pane(id), pending)
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.acts[id]; ok {
		return kept, nil
	}
	if _, ok := s.drivers[id]; !ok {
		return nil, conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	s.acts[id] = a
	return a, nil
}

// Answer answers the run's pending dialog.
func (s *Service) Answer(ctx context.Context, id string, a conv.Answer) error {
	act, err := s.actionsOf(ctx, id)
	if err != nil {
		return err
	}
	err = act.Answer(ctx, a)
	s.kick(id)
	return err
}

// Reply sends the operator's text as the next message, with the run's
// uploads named by uploads (see Actor.Reply). Unknown uploads: EInvalid,
// before anything is typed. A run whose CLI is still starting gets it
// once its input box shows (see ready.go).
func (s *Service) Reply(ctx context.Context, id, text string, uploads ...string) error {
	act, err := s.actionsOf(ctx, id)
	if err != nil {
		return err
	}
	var files []conv.Upload
	if len(uploads) > 0 {
		if s.uploads == nil {
			return conv.Errorf(conv.EInvalid, "this lab takes no uploads")
		}
		if files, err = s.uploads(ctx, id, uploads); err != nil {
			return err
		}
	}
	if l := s.liveOf(id); l != nil {
		if err := l.waitReady(ctx); err != nil {
			return err
		}
	}
	err = act.Reply(ctx, text, files...)
	s.kick(id)
	return err
}

// Interrupt stops the agent's current turn.
func (s *Service) Interrupt(ctx context.Context, id string) error {
	act, err := s.actionsOf(ctx, id)
	if err != nil {
		return err
	}
	err = act.Interrupt(ctx)
	if l := s.liveOf(id); l != nil {
		l.nudge()
	}
	return err
}

func (s *Service) kick(id string) {
	if l := s.liveOf(id); l != nil {
		l.tail.Kick()
	}
}

// Lag returns, per followed run, how long ago its tailer caught up.
func (s *Service) Lag() map[string]time.Duration {
	s.mu.Lock()
	lives := make(map[string]*live, len(s.lives))
	for id, l := range s.lives {
		lives[id] = l
	}
	s.mu.Unlock()
	out := make(map[string]time.Duration, len(lives))
	for id, l := range lives {
		out[id] = l.lag()
	}
	return out
}
