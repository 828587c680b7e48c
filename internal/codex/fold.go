package codex

import (
	"bytes"
	"io"

	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// foldChunk is how many messages one storage chunk holds. Chunked storage
// keeps an append O(1) without ever copying the whole stream, so one new
// line costs the same on a long rollout as on a short one.
const foldChunk = 1024

// foldPartialKeep is the largest line buffer kept for reuse after a line
// completes; a bigger one (a multi-megabyte command output) is released.
const foldPartialKeep = 256 << 10

// Fold turns a Codex rollout into the chat stream incrementally: feed it
// the file's bytes in any split with Write and it holds exactly what
// folding the whole file at once would. It keeps only what the chat shows
// (tool outputs truncated), never the raw lines.
//
// A Fold is not safe for concurrent use; callers lock.
type Fold struct {
	chunks [][]conv.Message
	n      int

	tools    map[string]int   // call_id -> index of its tool or dialog message
	qids     map[int][]string // question dialog index -> its questions' ids
	orphans  map[string]bool  // outputs whose call was never seen
	pending  []int            // indexes of pending dialogs, oldest first
	running  []int            // indexes of tools without an output yet, oldest first
	tail     conv.State       // what the last state-moving record implies
	mode     string           // collaboration mode of the current turn ("default", "plan")
	intents  func(toolID string) (*conv.Outcome, bool)
	sessStr  string
	backMark int // Len at the previous TakeBackpatch
	backMin  int // lowest changed seq <= backMark since then, 0 if none

	partial       []byte // the held incomplete last line
	partialPeeked bool   // the held line's prefix already asked for a full parse
	reading       bool   // inside ReadFrom: keep the line buffer between lines
	skipping      bool   // discarding the rest of a bookkeeping line
	bytes         int64
	lines         int
	skipped       int

	ln rolloutLine // scratch, reused across lines
	it payloadItem
}

// NewFold returns an empty fold.
func NewFold() *Fold {
	return &Fold{tools: map[string]int{}, qids: map[int][]string{}, orphans: map[string]bool{}, tail: conv.StateIdle}
}

// Write feeds appended rollout bytes. A trailing incomplete line is held
// until its newline arrives. Malformed lines are skipped and counted.
func (f *Fold) Write(p []byte) {
	f.bytes += int64(len(p))
	for len(p) > 0 {
		if f.skipping {
			k := bytes.IndexByte(p, '\n')
			if k < 0 {
				return
			}
			f.skipping = false
			f.lines++
			p = p[k+1:]
			continue
		}
		k := bytes.IndexByte(p, '\n')
		if len(f.partial) > 0 {
			if k < 0 {
				f.holdMore(p)
				return
			}
			f.partial = foldAppend(f.partial, p[:k])
			f.line(f.partial)
			f.releasePartial()
			p = p[k+1:]
			continue
		}
		if k < 0 {
			f.holdMore(p)
			return
		}
		f.line(p[:k])
		p = p[k+1:]
	}
}

// holdMore appends p to the held partial line, or switches to skipping
// when the prefix shows a bookkeeping line: a 20 MB duplicate of a command
// output then costs nothing to hold.
func (f *Fold) holdMore(p []byte) {
	f.partial = foldAppend(f.partial, p)
	f.peekHeld()
}

// peekHeld decides, once the held line's prefix allows, whether the line is
// skippable bookkeeping.
func (f *Fold) peekHeld() {
	if f.partialPeeked {
		return
	}
	switch foldPeek(f.partial) {
	case peekSkip:
		f.skipping = true
		f.releasePartial()
	case peekFull:
		f.partialPeeked = true
	}
}

// foldAppend appends, doubling capacity when it grows, so a long line
// arriving in small pieces is copied O(1) times per byte. p may overlap
// dst's spare capacity (ReadFrom's rest of a read): copy is defined for
// overlapping slices.
func foldAppend(dst, p []byte) []byte {
	if len(dst)+len(p) > cap(dst) {
		dst = foldGrow(dst, len(p))
	}
	n := len(dst)
	dst = dst[:n+len(p)]
	copy(dst[n:], p)
	return dst
}

// foldGrow returns dst with room for at least n more bytes, at least
// doubling its capacity.
func foldGrow(dst []byte, n int) []byte {
	grown := make([]byte, len(dst), max(2*cap(dst), len(dst)+n, 512))
	copy(grown, dst)
	return grown
}

func (f *Fold) releasePartial() {
	if cap(f.partial) > foldPartialKeep && !f.reading {
		f.partial = nil
	} else {
		f.partial = f.partial[:0]
	}
	f.partialPeeked = false
}

// foldReadChunk is how much ReadFrom asks of the reader at a time.
const foldReadChunk = 256 << 10

// ReadFrom feeds everything r yields, exactly as Write would, and returns
// the bytes read and the first read error other than io.EOF. While a line
// is held it reads straight onto it, and it keeps the line buffer until it
// returns, so a file of multi-megabyte lines costs one copy per byte and no
// buffer growth after the longest line.
func (f *Fold) ReadFrom(r io.Reader) (int64, error) {
	f.reading = true
	defer func() {
		f.reading = false
		if len(f.partial) == 0 {
			f.releasePartial()
		}
	}()
	buf := make([]byte, foldReadChunk)
	var total int64
	for {
		var n int
		var err error
		if len(f.partial) > 0 && !f.skipping {
			if cap(f.partial)-len(f.partial) < foldReadChunk {
				f.partial = foldGrow(f.partial, foldReadChunk)
			}
			held := len(f.partial)
			n, err = r.Read(f.partial[held : held+foldReadChunk])
			f.writeOntoHeld(held, n)
		} else {
			n, err = r.Read(buf)
			f.Write(buf[:n])
		}
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// writeOntoHeld is Write for n bytes already read into the spare capacity
// after the held line's held bytes.
func (f *Fold) writeOntoHeld(held, n int) {
	if n == 0 {
		return
	}
	p := f.partial[held : held+n]
	k := bytes.IndexByte(p, '\n')
	if k < 0 {
		f.bytes += int64(n)
		f.partial = f.partial[:held+n]
		f.peekHeld()
		return
	}
	f.bytes += int64(k + 1)
	rest := p[k+1:] // still valid after the line: releasePartial keeps the buffer while reading
	f.line(f.partial[:held+k])
	f.releasePartial()
	// Write folds the rest's complete lines where they lie, then holds its
	// tail by copying it to the front of this same buffer (foldAppend).
	f.Write(rest)
}

// line folds one complete line (without its newline).
func (f *Fold) line(b []byte) {
	f.lines++
	if jsonscan.WS(b, 0) == len(b) {
		return // a blank line is no record at all
	}
	if foldPeek(b) == peekSkip {
		return
	}
	ln := &f.ln
	if !ln.parse(b) {
		f.skipped++
		return
	}
	if !f.apply(ln) {
		f.skipped++
	}
}

// Len returns the number of messages, which is also the last seq.
func (f *Fold) Len() int { return f.n }

// Lines returns the number of complete lines consumed.
func (f *Fold) Lines() int { return f.lines }

// SkippedLines returns how many lines were malformed and skipped.
// Bookkeeping and unknown line types are skipped silently, not counted.
func (f *Fold) SkippedLines() int { return f.skipped }

// Bytes returns the bytes consumed so far, including a held partial line.
func (f *Fold) Bytes() int64 { return f.bytes }

// SessionID returns the session (thread) id of the rollout's session_meta,
// or "".
func (f *Fold) SessionID() string { return f.sessStr }

// at returns the message at index i (seq i+1).
func (f *Fold) at(i int) *conv.Message { return &f.chunks[i/foldChunk][i%foldChunk] }

// push appends m with the next seq and its hash, returning its index.
func (f *Fold) push(m conv.Message) int {
	if f.n%foldChunk == 0 {
		f.chunks = append(f.chunks, nil)
	}
	m.Seq = f.n + 1
	m.SetHash()
	c := &f.chunks[len(f.chunks)-1]
	*c = append(*c, m)
	f.n++
	return f.n - 1
}

// changed re-stamps the hash of the message at index i after an in-place
// change and remembers it for TakeBackpatch when it lies behind the mark.
func (f *Fold) changed(i int) {
	m := f.at(i)
	m.SetHash()
	if m.Seq <= f.backMark && (f.backMin == 0 || m.Seq < f.backMin) {
		f.backMin = m.Seq
	}
}

// TakeBackpatch returns the lowest seq whose content changed although it
// was already at or below Len at the previous call (a tool got its output,
// a dialog its outcome), or 0 if none did, and resets the mark to Len.
func (f *Fold) TakeBackpatch() int {
	s := f.backMin
	f.backMin = 0
	f.backMark = f.n
	return s
}

// Resolved reports whether the rollout shows the call id resolved: its
// tool has an output or its dialog an outcome.
func (f *Fold) Resolved(toolID string) bool {
	if i, ok := f.tools[toolID]; ok {
		m := f.at(i)
		if m.Dialog != nil {
			return m.Dialog.Outcome != nil
		}
		return m.Tool != nil && m.Tool.Status != conv.ToolRunning
	}
	return f.orphans[toolID]
}

// Messages returns a window of the stream with conv.Query's semantics:
// with after == 0, the newest limit messages with seq < before (before 0
// meaning no bound); otherwise the oldest limit with seq > after (and
// < before when before > 0). limit <= 0 means no limit. hasMoreBefore says
// whether messages older than the window exist. The messages are copies
// the caller may keep.
func (f *Fold) Messages(after, before, limit int) (msgs []conv.Message, hasMoreBefore bool) {
	lo, hi := max(after+1, 1), f.n // seqs, inclusive
	if before > 0 {
		hi = min(hi, before-1)
	}
	if lo > hi {
		return []conv.Message{}, false
	}
	if limit > 0 && hi-lo+1 > limit {
		if after == 0 {
			lo = hi - limit + 1
		} else {
			hi = lo + limit - 1
		}
	}
	msgs = make([]conv.Message, 0, hi-lo+1)
	for s := lo; s <= hi; s++ {
		msgs = append(msgs, foldClone(*f.at(s - 1)))
	}
	return msgs, lo > 1
}

// SetIntents installs the lookup of the outcomes lab meant when it
// answered, used to warn when the rollout recorded something else. It is
// called with the caller's lock held, so it must not call back.
func (f *Fold) SetIntents(fn func(toolID string) (*conv.Outcome, bool)) { f.intents = fn }

// foldClone deep-copies a message so the caller's copy survives later
// back-patches.
func foldClone(m conv.Message) conv.Message {
	if m.Tool != nil {
		t := *m.Tool
		m.Tool = &t
	}
	if m.Lifecycle != nil {
		l := *m.Lifecycle
		m.Lifecycle = &l
	}
	m.Dialog = m.Dialog.Clone()
	return m
}
