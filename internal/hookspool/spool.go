package hookspool

import (
	"sync"

	"lab/internal/conv"
)

// Spool reads a run's spool folder for an adapter: it caches parsed
// payloads (spooled files never change once renamed into place), keeps
// the call ids the live layer retired, compacts the folder as it grows,
// and caches the permission dialogs built from it. It is safe for
// concurrent use. All its state is derived from the files on disk, so a
// new Spool over the same folder (a restarted lab) sees the same pending
// dialogs. What the events mean is the adapter's Fold.
type Spool[P Payload, S any] struct {
	dir string
	cfg Config[P, S]

	mu      sync.Mutex
	files   *Dir[P]
	retired map[string]bool         // call ids retired by the live layer
	dialogs map[string]*conv.Dialog // permission dialogs by payload file: diffs are built once
}

// Config is an adapter's part of a Spool.
type Config[P Payload, S any] struct {
	// Fold derives the adapter's state from the events, in hook start
	// order, and the call ids retired, and names the files the state
	// still depends on (compaction keeps those).
	Fold func(evs []P, retired map[string]bool) (S, map[string]bool)
	// First are the events whose unneeded files compaction deletes before
	// the others (those that must never be resurrected: see Dir.Compact).
	First []string
	// Retiring, when set, names more files Retire deletes with a call's
	// PreToolUse files, from the state before the call was retired.
	Retiring func(st S, id string) []string
}

// CompactAbove is the number of spooled files past which Refresh
// compacts. Codex spools every tool call (Pre and PostToolUse), Claude
// Code every tool call too (a permission request names its call only by
// tool and input), so a busy run fills its folder fast.
const CompactAbove = 64

// maxDialogs bounds the permission dialog cache; past it, it starts over.
const maxDialogs = 64

// Open returns the reader of dir, which need not exist yet, for payloads
// of type T (each file read by Parse).
func Open[T any, P interface {
	*T
	Payload
}, S any](dir string, cfg Config[P, S]) *Spool[P, S] {
	return &Spool[P, S]{dir: dir, cfg: cfg, files: NewDir(dir, Parse[T, P]), retired: map[string]bool{}, dialogs: map[string]*conv.Dialog{}}
}

// Dir is the spool directory (for watchers).
func (s *Spool[P, S]) Dir() string { return s.dir }

// Refresh reads any new payloads and returns the state, compacting past
// CompactAbove files. Unreadable or malformed files are skipped (a hook
// killed mid-copy leaves only a dot-temp file, which is never read).
func (s *Spool[P, S]) Refresh() (S, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.files.Load(); err != nil {
		var none S
		return none, err
	}
	st, _ := s.cfg.Fold(s.files.Events(), s.retired)
	if s.files.Len() > CompactAbove {
		if err := s.compactLocked(); err != nil {
			return st, err
		}
	}
	return st, nil
}

// Retire marks the call id resolved (the transcript showed its result,
// which for a declined picker, an Escape or an interrupt is the only
// sign): its pending dialog is never served again. Its PreToolUse files
// (and those Config.Retiring names) are deleted, so a restarted lab does
// not resurrect it.
func (s *Spool[P, S]) Retire(id string) error {
	if id == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.files.Load(); err != nil {
		return err
	}
	var more []string
	if s.cfg.Retiring != nil {
		st, _ := s.cfg.Fold(s.files.Events(), s.retired) // before retiring: what to drop is still in it
		more = s.cfg.Retiring(st, id)
	}
	s.retired[id] = true
	var drop []string
	for _, p := range s.files.Events() {
		if e := p.Hook(); e.Name == PreToolUse && e.ToolUseID == id {
			drop = append(drop, e.File)
		}
	}
	return s.files.Remove(append(drop, more...)...) // the calls first: see Dir.Remove
}

// Compact deletes the files that can no longer change the state: those of
// Config.First first (so a crash midway never resurrects a resolved
// dialog), then superseded and finished events, and abandoned temp files.
func (s *Spool[P, S]) Compact() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.files.Load(); err != nil {
		return err
	}
	return s.compactLocked()
}

func (s *Spool[P, S]) compactLocked() error {
	_, keep := s.cfg.Fold(s.files.Events(), s.retired)
	return s.files.Compact(keep, s.cfg.First...)
}

// Dialog returns a copy of the permission dialog of the payload in file,
// built by build once per file (a file change's diff reads files).
func (s *Spool[P, S]) Dialog(file string, build func() *conv.Dialog) *conv.Dialog {
	s.mu.Lock()
	d, ok := s.dialogs[file]
	s.mu.Unlock()
	if !ok {
		d = build()
		s.mu.Lock()
		if len(s.dialogs) > maxDialogs {
			clear(s.dialogs)
		}
		s.dialogs[file] = d
		s.mu.Unlock()
	}
	return d.Clone()
}
