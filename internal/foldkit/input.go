package foldkit

import (
	"bytes"
	"io"
	"sync"

	"lab/internal/jsonscan"
)

// Verdict is what a peek at the start of a line says about the line.
type Verdict int

// Verdicts of a Peek.
const (
	PeekMore Verdict = iota // the bytes so far cannot tell yet
	PeekFull                // the line needs a full parse
	PeekSkip                // a bookkeeping line, skippable from its prefix alone
)

// Peek judges a line from its start. It must decide from a prefix alone,
// so that a held partial line and the same line complete always get the
// same verdict: a line it skips early is never held, whatever its size.
type Peek func(b []byte) Verdict

// Line folds one complete line (without its newline) that is neither
// blank nor skipped by the peek, reporting false when the line is
// malformed (it is then counted as skipped).
type Line func(b []byte) bool

// PartialKeep is the largest line buffer kept for reuse after a line
// completes; a bigger one (a multi-megabyte tool output) is released.
const PartialKeep = 256 << 10

// ReadChunk is how much FeedFrom asks of the reader at a time.
const ReadChunk = 256 << 10

// Input splits appended bytes into complete lines for a fold, holding an
// incomplete last line until its newline arrives. Its zero value is ready.
// Peek and Line are passed with every call rather than kept, so an Input
// holds only data (a copy of it is a copy of its state).
type Input struct {
	partial  []byte // the held incomplete last line
	peeked   bool   // the held line's prefix already asked for a full parse
	reading  bool   // inside FeedFrom: keep the line buffer between lines
	skipping bool   // discarding the rest of a bookkeeping line
	start    int64  // the file offset of the line being held or folded
	bytes    int64
	lines    int
	skipped  int
}

// Feed folds appended bytes: every complete line through line, a trailing
// incomplete one held, or dropped as it streams in once peek says it is
// bookkeeping.
func (in *Input) Feed(p []byte, peek Peek, line Line) {
	off := in.bytes // the file offset of p[0]
	in.bytes += int64(len(p))
	for len(p) > 0 {
		if in.skipping {
			k := bytes.IndexByte(p, '\n')
			if k < 0 {
				return
			}
			in.skipping = false
			in.lines++
			off, p = off+int64(k+1), p[k+1:]
			in.start = off
			continue
		}
		k := bytes.IndexByte(p, '\n')
		if len(in.partial) > 0 {
			if k < 0 {
				in.holdMore(p, peek)
				return
			}
			in.partial = appendGrow(in.partial, p[:k])
			in.line(in.partial, peek, line)
			in.releasePartial()
			off, p = off+int64(k+1), p[k+1:]
			in.start = off
			continue
		}
		if k < 0 {
			in.holdMore(p, peek)
			return
		}
		in.line(p[:k], peek, line)
		off, p = off+int64(k+1), p[k+1:]
		in.start = off
	}
}

// holdMore appends p to the held partial line, or switches to skipping
// when the prefix shows a bookkeeping line: a blob of many megabytes then
// costs nothing to hold.
func (in *Input) holdMore(p []byte, peek Peek) {
	in.partial = appendGrow(in.partial, p)
	in.peekHeld(peek)
}

// peekHeld decides, once the held line's prefix allows, whether the line
// is skippable bookkeeping.
func (in *Input) peekHeld(peek Peek) {
	if in.peeked {
		return
	}
	switch peek(in.partial) {
	case PeekSkip:
		in.skipping = true
		in.releasePartial()
	case PeekFull:
		in.peeked = true
	}
}

// appendGrow appends, doubling capacity when it grows, so a long line
// arriving in small pieces is copied O(1) times per byte. p may overlap
// dst's spare capacity (FeedFrom's rest of a read): copy is defined for
// overlapping slices.
func appendGrow(dst, p []byte) []byte {
	if len(dst)+len(p) > cap(dst) {
		dst = grow(dst, len(p))
	}
	n := len(dst)
	dst = dst[:n+len(p)]
	copy(dst[n:], p)
	return dst
}

// grow returns dst with room for at least n more bytes, at least doubling
// its capacity. Past PartialKeep it takes the spare line buffer when that
// is big enough and not more than spareSlack times too big (a small line
// held for long must not pin a huge buffer).
func grow(dst []byte, n int) []byte {
	size := max(2*cap(dst), len(dst)+n, 512)
	var grown []byte
	if size > PartialKeep {
		if p, _ := spareLines.Get().(*[]byte); p != nil {
			if c := cap(*p); c >= len(dst)+n && c <= spareSlack*size {
				grown = (*p)[:len(dst)]
			} else {
				spareLines.Put(p)
			}
		}
	}
	if grown == nil {
		grown = make([]byte, len(dst), size)
	}
	copy(grown, dst)
	return grown
}

// spareSlack bounds how much bigger than asked a spare line buffer may be.
const spareSlack = 8

// spareLines keeps the line buffers of released multi-megabyte lines for
// the next long line of any fold in the process: folding file after file
// (a restart's re-folds, the history) then grows, zeroes and faults in a
// buffer the size of the longest line once rather than per file. Being a
// sync.Pool, it gives them back to the GC after two collections.
var spareLines sync.Pool // *[]byte

func (in *Input) releasePartial() {
	if cap(in.partial) > PartialKeep && !in.reading {
		spare := in.partial[:0]
		spareLines.Put(&spare)
		in.partial = nil
	} else {
		in.partial = in.partial[:0]
	}
	in.peeked = false
}

// FeedFrom feeds everything r yields, exactly as Feed would, and returns
// the bytes read and the first read error other than io.EOF. While a line
// is held it reads straight onto it, and it keeps the line buffer until it
// returns, so a file of multi-megabyte lines costs one copy per byte and
// no buffer growth after the longest line.
func (in *Input) FeedFrom(r io.Reader, peek Peek, line Line) (int64, error) {
	in.reading = true
	defer func() {
		in.reading = false
		if len(in.partial) == 0 {
			in.releasePartial()
		}
	}()
	buf := make([]byte, ReadChunk)
	var total int64
	for {
		var n int
		var err error
		if len(in.partial) > 0 && !in.skipping {
			if cap(in.partial)-len(in.partial) < ReadChunk {
				in.partial = grow(in.partial, ReadChunk)
			}
			held := len(in.partial)
			n, err = r.Read(in.partial[held : held+ReadChunk])
			in.feedOntoHeld(held, n, peek, line)
		} else {
			n, err = r.Read(buf)
			in.Feed(buf[:n], peek, line)
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

// feedOntoHeld is Feed for n bytes already read into the spare capacity
// after the held line's held bytes.
func (in *Input) feedOntoHeld(held, n int, peek Peek, line Line) {
	if n == 0 {
		return
	}
	p := in.partial[held : held+n]
	k := bytes.IndexByte(p, '\n')
	if k < 0 {
		in.bytes += int64(n)
		in.partial = in.partial[:held+n]
		in.peekHeld(peek)
		return
	}
	in.bytes += int64(k + 1)
	rest := p[k+1:] // still valid after the line: releasePartial keeps the buffer while reading
	in.line(in.partial[:held+k], peek, line)
	in.releasePartial()
	in.start = in.bytes
	// Feed folds the rest's complete lines where they lie, then holds its
	// tail by copying it to the front of this same buffer (appendGrow).
	in.Feed(rest, peek, line)
}

// line folds one complete line (without its newline).
func (in *Input) line(b []byte, peek Peek, line Line) {
	in.lines++
	if jsonscan.WS(b, 0) == len(b) {
		return // a blank line is no record at all
	}
	if peek(b) == PeekSkip {
		return
	}
	if !line(b) {
		in.skipped++
	}
}

// Lines returns the number of complete lines consumed.
func (in *Input) Lines() int { return in.lines }

// SkippedLines returns how many lines were malformed and skipped.
// Bookkeeping and unknown line types are skipped silently, not counted.
func (in *Input) SkippedLines() int { return in.skipped }

// LineStart returns the file offset of the line being folded (during a
// Line call) or held: what a fold records to find a part of the line in
// the file again.
func (in *Input) LineStart() int64 { return in.start }

// Bytes returns the bytes consumed so far, including a held partial line.
func (in *Input) Bytes() int64 { return in.bytes }

// Held returns the length of the held partial line and the capacity of
// its buffer: what holding costs now.
func (in *Input) Held() (n, capacity int) { return len(in.partial), cap(in.partial) }

// Skipping reports whether the rest of a bookkeeping line is being
// dropped as it streams in.
func (in *Input) Skipping() bool { return in.skipping }

// Clone returns a copy of in that shares nothing with it; its held line
// is copied into buf's storage (nil: a fresh buffer), so a caller cloning
// many times can reuse one buffer.
func (in *Input) Clone(buf []byte) Input {
	c := *in
	c.partial = append(buf[:0], in.partial...)
	return c
}
