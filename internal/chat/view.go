package chat

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"lab/internal/agent"
	"lab/internal/conv"
)

// View is the folded chat of one transcript file, kept current by feeding
// it only the bytes appended since the last Sync. It is safe for
// concurrent use.
type View struct {
	path string

	newFold func() agent.Fold

	mu      sync.Mutex
	fold    agent.Fold
	offset  int64 // bytes of the file fed to the fold
	size    int64 // file size at the last Sync
	modTime int64 // file mtime (ns) at the last Sync
	intents func(toolID string) (*conv.Outcome, bool)
	buf     []byte
}

// readChunk bounds how much of a transcript is held in memory at once
// while catching up; the fold keeps only what the chat shows.
const readChunk = 1 << 20

// NewView returns a view of the transcript at path, folded by the folds
// newFold makes (the provider's). Nothing is read until the first Sync.
// intents may be nil.
func NewView(path string, newFold func() agent.Fold, intents func(toolID string) (*conv.Outcome, bool)) *View {
	v := &View{path: path, newFold: newFold, intents: intents}
	v.reset()
	return v
}

// Path returns the transcript path.
func (v *View) Path() string { return v.path }

// TranscriptID names the conversation the view shows: the transcript's
// session id (its file name without .jsonl).
func (v *View) TranscriptID() string {
	return strings.TrimSuffix(filepath.Base(v.path), ".jsonl")
}

func (v *View) reset() {
	v.fold = v.newFold()
	if v.intents != nil {
		v.fold.SetIntents(v.intents)
	}
	v.offset, v.size, v.modTime = 0, 0, 0
}

// Change says what a Sync found.
type Change struct {
	Changed   bool // new messages, or a message changed behind the cursor
	Backpatch int  // lowest seq whose content changed behind the previous read, 0 if none
	Reset     bool // the file shrank or was replaced: the view was refolded from scratch
}

// Sync folds whatever was appended to the file since the last Sync. A
// missing file is an empty conversation, not an error (the CLI creates
// the transcript lazily).
func (v *View) Sync() (Change, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.syncLocked()
}

func (v *View) syncLocked() (Change, error) {
	var ch Change
	// Stat first: an unchanged file (the common case on every request)
	// costs one syscall.
	info, err := os.Stat(v.path)
	if errors.Is(err, fs.ErrNotExist) {
		return ch, nil
	}
	if err != nil {
		return ch, fmt.Errorf("stat transcript: %w", err)
	}
	if info.Size() == v.size && info.ModTime().UnixNano() == v.modTime {
		return ch, nil
	}
	f, err := os.Open(v.path)
	if err != nil {
		return ch, fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return ch, fmt.Errorf("stat transcript: %w", err)
	}
	size, mtime := info.Size(), info.ModTime().UnixNano()
	if size < v.offset {
		// Truncated or replaced: the old folding says nothing about the
		// new bytes.
		v.reset()
		ch.Reset, ch.Changed = true, true
	}
	before := v.fold.Len()
	if v.buf == nil {
		v.buf = make([]byte, readChunk)
	}
	for v.offset < size {
		n, err := f.ReadAt(v.buf[:min(int64(len(v.buf)), size-v.offset)], v.offset)
		if n > 0 {
			v.fold.Write(v.buf[:n])
			v.offset += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return ch, fmt.Errorf("read transcript: %w", err)
		}
	}
	// A small view needs no standing buffer; a large one reuses it.
	if size < readChunk {
		v.buf = nil
	}
	v.size, v.modTime = size, mtime
	if bp := v.fold.TakeBackpatch(); bp > 0 {
		ch.Backpatch, ch.Changed = bp, true
	}
	if v.fold.Len() != before {
		ch.Changed = true
	}
	return ch, nil
}

// Snapshot is what a view shows at one moment.
type Snapshot struct {
	TranscriptID string
	State        conv.State
	Pending      *conv.Dialog
	Messages     []conv.Message
	FirstSeq     int
	LastSeq      int
	MoreBefore   bool
	Len          int
	Skipped      int
	Usage        *conv.Usage
}

// Page returns a window of the stream as of the last Sync.
func (v *View) Page(q conv.Query) Snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.pageLocked(q)
}

func (v *View) pageLocked(q conv.Query) Snapshot {
	msgs, more := v.fold.Messages(q.After, q.Before, q.Limit)
	s := Snapshot{
		TranscriptID: v.TranscriptID(),
		State:        v.fold.State(),
		Pending:      v.fold.PendingDialog(),
		Messages:     msgs,
		MoreBefore:   more,
		Len:          v.fold.Len(),
		Skipped:      v.fold.SkippedLines(),
		Usage:        v.fold.Usage(),
	}
	if s.Messages == nil {
		s.Messages = []conv.Message{}
	}
	if len(msgs) > 0 {
		s.FirstSeq, s.LastSeq = msgs[0].Seq, msgs[len(msgs)-1].Seq
	}
	return s
}

// Usage is what the conversation used of its model as of the last Sync.
func (v *View) Usage() *conv.Usage {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.Usage()
}

// Resolved reports whether the transcript shows toolID resolved.
func (v *View) Resolved(toolID string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.Resolved(toolID)
}

// Pending returns the transcript's pending tail dialog, or nil.
func (v *View) Pending() *conv.Dialog {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.PendingDialog()
}

// State returns the state derived from the transcript alone.
func (v *View) State() conv.State {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.State()
}

// Len returns the number of messages as of the last Sync.
func (v *View) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.Len()
}

// Bytes returns how many bytes of the file have been folded.
func (v *View) Bytes() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.offset
}

// Running returns the newest tool still waiting for its result, or nil.
func (v *View) Running() *conv.ToolCall {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.Running()
}

// Settings returns the permission mode and model the transcript last
// recorded.
func (v *View) Settings() conv.Settings {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fold.Settings()
}
