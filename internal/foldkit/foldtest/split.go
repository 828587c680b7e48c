package foldtest

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// Harness is how the shared fold tests make, copy and compare one
// adapter's folds.
type Harness[F Fold] struct {
	New func() F
	// Clone deep-copies a fold's state, its held line into buf's storage
	// (see foldkit.Input.Clone).
	Clone func(f F, buf []byte) F
	// Diff compares the whole internal state of two folds (StateDiff with
	// the adapter's scratch fields), or returns "".
	Diff func(got, want F) string
	// Backpatch, when set, allows a change to a served message beyond a
	// tool getting its result and a dialog its outcome.
	Backpatch func(was, now conv.Message) bool
}

// All folds b at once.
func (h Harness[F]) All(b []byte) F {
	f := h.New()
	f.Write(b)
	return f
}

// SplitPoints returns the offsets strictly inside the line [from, to) to
// split at: every one of them. With -short, lines over 4 KB (the real
// captures' prompt snapshots and request blobs) get only their first and
// last KB — where the prefix peek decides and where the newline lands —
// and 128 offsets spread between: past the peek a held line is only
// appended to, so the middle offsets all take the same path.
func SplitPoints(from, to int) []int {
	var pts []int
	if to-from <= 4096 || !testing.Short() {
		for i := from + 1; i < to; i++ {
			pts = append(pts, i)
		}
		return pts
	}
	for i := from + 1; i <= from+1024; i++ {
		pts = append(pts, i)
	}
	lo, hi := from+1025, to-1024
	for k := range 128 {
		pts = append(pts, lo+k*(hi-lo)/128)
	}
	for i := hi; i < to; i++ {
		pts = append(pts, i)
	}
	return pts
}

// IncrementalEqualsWhole checks that data fed in pieces folds to what the
// whole folds to:
//
//   - line by line, then whole: the same observable result and internal
//     state;
//   - for every byte offset inside every line (see SplitPoints for lines
//     over 4 KB): the fold as it stood before that line (cloned), fed the
//     line in two pieces, reaches exactly the internal state the unsplit
//     line gives — equal state at a line boundary means equal futures,
//     which keeps this linear in the data's size rather than quadratic;
//   - a sample of offsets fed as two plain Writes from scratch, and the
//     whole data one byte at a time, compared with the whole result.
func (h Harness[F]) IncrementalEqualsWhole(t *testing.T, data []byte) {
	t.Helper()
	whole := h.All(data)
	want := Observe(whole)

	// Reference states at every line boundary.
	ref := h.New()
	var bounds []int
	var states []F
	for b := 0; b < len(data); {
		bounds, states = append(bounds, b), append(states, h.Clone(ref, nil))
		k := bytes.IndexByte(data[b:], '\n')
		if k < 0 {
			k = len(data) - b - 1
		}
		ref.Write(data[b : b+k+1])
		b += k + 1
	}
	bounds, states = append(bounds, len(data)), append(states, h.Clone(ref, nil))
	if d := DiffObserved(Observe(ref), want); d != "" {
		t.Fatalf("line by line: %s", d)
	}
	if d := h.Diff(ref, whole); d != "" {
		t.Fatalf("line by line, internal state: %s", d)
	}

	scratch := make([]byte, 0, 1<<20) // the held line's buffer, reused: g is dropped after each split
	for k := 0; k+1 < len(bounds); k++ {
		from, to := bounds[k], bounds[k+1]
		for _, i := range SplitPoints(from, to) {
			g := h.Clone(states[k], scratch)
			g.Write(data[from:i])
			g.Write(data[i:to])
			if d := h.Diff(g, states[k+1]); d != "" {
				t.Fatalf("line at %d split at %d: %s", from, i, d)
			}
		}
	}

	rng := rand.New(rand.NewPCG(1, uint64(len(data))))
	for range 64 {
		i := rng.IntN(len(data) + 1)
		f := h.New()
		f.Write(data[:i])
		f.Write(data[i:])
		if d := DiffObserved(Observe(f), want); d != "" {
			t.Fatalf("split at %d of %d: %s", i, len(data), d)
		}
	}

	f := h.New()
	for i := range data {
		f.Write(data[i : i+1])
	}
	if d := DiffObserved(Observe(f), want); d != "" {
		t.Fatalf("byte at a time: %s", d)
	}
}

// SeqsStableUnderAppend checks the reparse-stability promise: after each
// appended line of data, every message already served either is unchanged
// or changed only as a back-patch (a tool got its result, a dialog its
// outcome, or what h.Backpatch allows), and TakeBackpatch reports the
// lowest such seq.
func (h Harness[F]) SeqsStableUnderAppend(t *testing.T, data []byte) {
	t.Helper()
	f := h.New()
	prev, _ := f.Messages(0, 0, 0)
	f.TakeBackpatch()
	for len(data) > 0 {
		k := bytes.IndexByte(data, '\n')
		if k < 0 {
			k = len(data) - 1
		}
		f.Write(data[:k+1])
		data = data[k+1:]
		cur, _ := f.Messages(0, 0, 0)
		if len(cur) < len(prev) {
			t.Fatalf("stream shrank from %d to %d messages", len(prev), len(cur))
		}
		lowest := 0
		for i, p := range prev {
			c := cur[i]
			if c.Seq != p.Seq || c.Kind != p.Kind {
				t.Fatalf("seq %d changed kind or seq: got %d/%s; want %d/%s", p.Seq, c.Seq, c.Kind, p.Seq, p.Kind)
			}
			if c.ContentHash == p.ContentHash {
				continue
			}
			backpatch := (p.Tool != nil && p.Tool.Status == "running" && c.Tool.Status != "running") ||
				(p.Dialog != nil && p.Dialog.Outcome == nil && c.Dialog.Outcome != nil) ||
				(h.Backpatch != nil && h.Backpatch(p, c))
			if !backpatch {
				t.Fatalf("seq %d changed without being a back-patch: got %+v; was %+v", p.Seq, c, p)
			}
			if lowest == 0 {
				lowest = c.Seq
			}
		}
		if got := f.TakeBackpatch(); got != lowest {
			t.Fatalf("TakeBackpatch = %d; want %d", got, lowest)
		}
		prev = cur
	}
}

// pieces yields its data in pieces of varying sizes, like a file being
// read while it grows.
type pieces struct {
	data  []byte
	sizes []int
	i     int
}

func (c *pieces) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(c.sizes[c.i%len(c.sizes)], len(p), len(c.data))
	c.i++
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// ReadFromEqualsWrite checks that ReadFrom, which reads straight onto a
// held line, folds data exactly like Write, whatever sizes the reader
// returns, including after bytes fed with Write (a held partial line),
// and keeps no big line buffer once it returns.
func (h Harness[F]) ReadFromEqualsWrite(t *testing.T, data []byte) {
	t.Helper()
	want := Observe(h.All(data))
	for _, sizes := range [][]int{{1}, {7, 300, 1}, {4096}, {foldkit.ReadChunk}, {100000, 3}} {
		for _, pre := range []int{0, len(data) / 3} {
			f := h.New()
			f.Write(data[:pre])
			n, err := f.ReadFrom(&pieces{data: data[pre:], sizes: sizes})
			if err != nil || n != int64(len(data)-pre) {
				t.Fatalf("ReadFrom = %d, %v; want %d, nil", n, err, len(data)-pre)
			}
			if d := DiffObserved(Observe(f), want); d != "" {
				t.Fatalf("chunks %v after %d written bytes: %s", sizes, pre, d)
			}
			if n, c := f.Held(); c > foldkit.PartialKeep && n == 0 {
				t.Errorf("kept a %d-byte buffer after ReadFrom", c)
			}
		}
	}
}

// ReadFromError checks that a read error is returned with the bytes read
// so far folded: line is one line that folds to one message.
func (h Harness[F]) ReadFromError(t *testing.T, line string) {
	t.Helper()
	boom := errors.New("disk gone")
	f := h.New()
	n, err := f.ReadFrom(io.MultiReader(strings.NewReader(line+line[:20]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || n != int64(len(line)+20) || f.Len() != 1 || f.Bytes() != n {
		t.Errorf("ReadFrom = %d, %v with %d messages, %d bytes; want %d, %v, 1 message", n, err, f.Len(), f.Bytes(), len(line)+20, boom)
	}
}
