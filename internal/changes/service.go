// Package changes answers what a run changed in its folder. It keeps
// snapshots of a run's folder (internal/gitsnap: git trees in lab's own
// store, the operator's git state untouched) as the run starts and as
// each of its turns ends, compares them with the folder as it is now
// (changes since the run started, or since the current turn began), shows
// one file's diff or content, and, for history sessions lab kept no
// snapshots of, lists the files their tool calls wrote. It lives above
// the seam: it knows runs, their turns and the neutral types, never an
// agent CLI.
package changes

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/gitsnap"
	"lab/internal/store"
)

// Sessions is the history as this package reads it.
type Sessions interface {
	Get(ctx context.Context, id string) (conv.Session, error)
	Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error)
}

// Config wires a Service. DB is required.
type Config struct {
	DB       *store.DB
	Sessions Sessions // nil: history sessions answer 503
	Logger   *slog.Logger
	Now      func() time.Time
	// SnapshotTimeout bounds one snapshot; default 2 minutes.
	SnapshotTimeout time.Duration
}

// Service keeps runs' snapshots and answers their changes. It is safe
// for concurrent use.
type Service struct {
	cfg Config
	db  *store.DB
	log *slog.Logger

	mu     sync.Mutex
	stores map[string]*gitsnap.Store // by run id
	turns  map[string]turnState      // where each live run's turns stand
	ended  map[string]int            // turn ends waiting for a snapshot: run id → prompts
	busy   bool                      // the worker is taking snapshots
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// turnState is what the chat layer last said of a run's turns.
type turnState struct {
	prompts int
	state   conv.State
}

// New starts a Service; Close stops its snapshot worker.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SnapshotTimeout <= 0 {
		cfg.SnapshotTimeout = 2 * time.Minute
	}
	s := &Service{
		cfg: cfg, db: cfg.DB, log: cfg.Logger,
		stores: map[string]*gitsnap.Store{}, turns: map[string]turnState{}, ended: map[string]int{},
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go s.loop()
	return s
}

// Close stops taking snapshots, after the one under way.
func (s *Service) Close() {
	s.once.Do(func() {
		close(s.stop)
		<-s.done
	})
}

// storeOf is the run's snapshot store, in its run folder.
func (s *Service) storeOf(rec store.RunRecord) *gitsnap.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stores[rec.ID]
	if !ok {
		st = gitsnap.NewStore(filepath.Join(rec.RunDir, "snapshots"))
		s.stores[rec.ID] = st
	}
	return st
}

// Started records the run's folder as the run starts, before its CLI
// runs (the runs layer calls it). A folder outside git gets no snapshot;
// a snapshot that fails is logged and leaves the run without changes,
// never without its start.
func (s *Service) Started(ctx context.Context, rec store.RunRecord) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.SnapshotTimeout)
	defer cancel()
	repo, err := gitsnap.Open(ctx, rec.Cwd)
	if err != nil {
		if !isNotRepo(err) {
			s.log.Warn("changes: cannot read the run's folder as git", "run", rec.ID, "cwd", rec.Cwd, "err", err)
		}
		return
	}
	start := time.Now()
	tree, err := s.storeOf(rec).Snapshot(ctx, repo)
	if err != nil {
		s.log.Warn("changes: the start snapshot failed; this run will show no changes", "run", rec.ID, "cwd", rec.Cwd, "err", err)
		return
	}
	if _, err := s.db.AddSnapshot(ctx, rec.ID, 0, tree, s.cfg.Now()); err != nil {
		s.log.Warn("changes: record the start snapshot", "run", rec.ID, "err", err)
		return
	}
	s.log.Debug("changes: start snapshot", "run", rec.ID, "tree", tree, "took", time.Since(start))
}

// Turn hears where a live run's turns stand (chat.TurnFunc): a turn that
// ended (the run waits for the operator, or ended) with more prompts
// than the last snapshot knew gets a snapshot, on the worker. It never
// blocks.
func (s *Service) Turn(runID string, prompts int, state conv.State) {
	s.mu.Lock()
	if state == conv.StateEnded {
		delete(s.turns, runID)
	} else {
		s.turns[runID] = turnState{prompts, state}
	}
	if turnOver(state) && prompts > 0 && prompts > s.ended[runID] {
		s.ended[runID] = prompts
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// turnOver reports whether a run in state is between turns.
func turnOver(st conv.State) bool {
	return st == conv.StateNeedsInput || st == conv.StateIdle || st == conv.StateEnded
}

func (s *Service) loop() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		s.mu.Lock()
		todo := s.ended
		s.ended, s.busy = map[string]int{}, true
		s.mu.Unlock()
		for id, prompts := range todo {
			select {
			case <-s.stop:
				return
			default:
			}
			s.turnEnded(id, prompts)
		}
		s.mu.Lock()
		s.busy = false
		s.mu.Unlock()
	}
}

// settled reports whether no turn snapshot waits or is being taken.
func (s *Service) settled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.busy && len(s.ended) == 0
}

// turnEnded snapshots the run's folder at the end of a turn, unless a
// snapshot already covers it or the run has none to compare with.
func (s *Service) turnEnded(runID string, prompts int) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.SnapshotTimeout)
	defer cancel()
	rec, err := s.db.GetRun(ctx, runID)
	if err != nil {
		return
	}
	snaps, err := s.db.Snapshots(ctx, runID)
	if err != nil || len(snaps) == 0 || snaps[len(snaps)-1].Prompts >= prompts {
		return
	}
	repo, err := gitsnap.Open(ctx, rec.Cwd)
	if err != nil {
		s.log.Debug("changes: no turn snapshot: the folder is not readable as git", "run", runID, "err", err)
		return
	}
	tree, err := s.storeOf(rec).Snapshot(ctx, repo)
	if err != nil {
		s.log.Warn("changes: turn snapshot failed", "run", runID, "err", err)
		return
	}
	if _, err := s.db.AddSnapshot(ctx, runID, prompts, tree, s.cfg.Now()); err != nil {
		s.log.Warn("changes: record the turn snapshot", "run", runID, "err", err)
	}
}

// Drop forgets the run's snapshots (the run was archived): the rows and
// the store with its objects.
func (s *Service) Drop(ctx context.Context, runID string) error {
	rec, err := s.db.GetRun(ctx, runID)
	if err != nil {
		return err
	}
	if _, err := s.db.DropSnapshots(ctx, runID); err != nil {
		return err
	}
	st := s.storeOf(rec)
	s.mu.Lock()
	delete(s.stores, runID)
	s.mu.Unlock()
	if err := st.Drop(); err != nil {
		return conv.Wrap(conv.EInternal, err, "remove the run's snapshots")
	}
	return nil
}

// Settle records the run's folder once more if it changed since the last
// snapshot (before lab removes a worktree, so its changes stay readable).
func (s *Service) Settle(ctx context.Context, rec store.RunRecord) error {
	snaps, err := s.db.Snapshots(ctx, rec.ID)
	if err != nil || len(snaps) == 0 {
		return err
	}
	repo, err := gitsnap.Open(ctx, rec.Cwd)
	if err != nil {
		return conv.Wrap(conv.EConflict, err, "the run's folder cannot be read as git")
	}
	tree, err := s.storeOf(rec).Snapshot(ctx, repo)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "snapshot the run's folder")
	}
	last := snaps[len(snaps)-1]
	if tree == last.Tree {
		return nil
	}
	_, err = s.db.AddSnapshot(ctx, rec.ID, last.Prompts, tree, s.cfg.Now())
	return err
}
