package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/foldkit/foldtest"
)

// foldObserved is everything observable about a fold, for comparing two.
type foldObserved struct {
	Snap                foldSnapshot
	Session             string
	Len, Lines, Skipped int
	Bytes               int64
}

func foldObserve(f *Fold) foldObserved {
	return foldObserved{foldSnapshotOf(f), f.SessionID(), f.Len(), f.Lines(), f.SkippedLines(), f.Bytes()}
}

// foldDiffObserved explains how got differs from want, or returns "".
func foldDiffObserved(t testing.TB, got, want foldObserved) string {
	if reflect.DeepEqual(got, want) {
		return ""
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return foldFirstDiff(strings.ReplaceAll(string(g), ",", ",\n"), strings.ReplaceAll(string(w), ",", ",\n"))
}

// foldSplitPoints returns the offsets strictly inside the line [from, to)
// to split at: every one of them. With -short, lines over 4 KB (the real
// captures' prompt snapshots and request blobs) get only their first and
// last KB — where the prefix peek decides and where the newline lands —
// and 128 offsets spread between: past the peek a held line is only
// appended to, so the middle offsets all take the same path.
func foldSplitPoints(from, to int) []int {
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

// TestFoldIncrementalEqualsWhole checks that a fold fed in pieces equals
// the fold of the whole, for every split point of every foldFixture:
//
//   - line by line, then whole: the same observable result;
//   - for every byte offset inside every line (see foldSplitPoints for lines
//     over 4 KB): the fold as it stood before
//     that line (cloned), fed the line in two pieces, reaches exactly the
//     internal state the unsplit line gives — equal state at a line
//     boundary means equal futures, which keeps this linear in the
//     foldFixture size rather than quadratic;
//   - a sample of offsets fed as two plain Writes from scratch, and the
//     whole foldFixture one byte at a time, compared with the whole result.
func TestFoldIncrementalEqualsWhole(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			data := readFoldFixture(t, fx.path)
			whole := foldAll(data)
			want := foldObserve(whole)

			// Reference states at every line boundary.
			ref := NewFold()
			var bounds []int
			var states []*Fold
			for b := 0; b < len(data); {
				bounds, states = append(bounds, b), append(states, cloneFold(ref, nil))
				k := bytes.IndexByte(data[b:], '\n')
				if k < 0 {
					k = len(data) - b - 1
				}
				ref.Write(data[b : b+k+1])
				b += k + 1
			}
			bounds, states = append(bounds, len(data)), append(states, cloneFold(ref, nil))
			if d := foldDiffObserved(t, foldObserve(ref), want); d != "" {
				t.Fatalf("line by line: %s", d)
			}
			if d := diffFold(ref, whole); d != "" {
				t.Fatalf("line by line, internal state: %s", d)
			}

			scratch := make([]byte, 0, 1<<20) // the held line's buffer, reused: g is dropped after each split
			for k := 0; k+1 < len(bounds); k++ {
				from, to := bounds[k], bounds[k+1]
				for _, i := range foldSplitPoints(from, to) {
					g := cloneFold(states[k], scratch)
					g.Write(data[from:i])
					g.Write(data[i:to])
					if d := diffFold(g, states[k+1]); d != "" {
						t.Fatalf("line at %d split at %d: %s", from, i, d)
					}
				}
			}

			rng := rand.New(rand.NewPCG(1, uint64(len(data))))
			for range 64 {
				i := rng.IntN(len(data) + 1)
				f := NewFold()
				f.Write(data[:i])
				f.Write(data[i:])
				if d := foldDiffObserved(t, foldObserve(f), want); d != "" {
					t.Fatalf("split at %d of %d: %s", i, len(data), d)
				}
			}

			f := NewFold()
			for i := range data {
				f.Write(data[i : i+1])
			}
			if d := foldDiffObserved(t, foldObserve(f), want); d != "" {
				t.Fatalf("byte at a time: %s", d)
			}
		})
	}
}

// cloneFold deep-copies a fold's state (test-only), its held line into
// buf's storage (see foldkit.Input.Clone).
func cloneFold(f *Fold, buf []byte) *Fold {
	c := *f
	c.Input = f.Input.Clone(buf)
	c.Stream = f.Stream.Clone()
	c.session = slices.Clone(f.session)
	c.ln, c.msg, c.blk = foldLine{}, foldMessage{}, foldBlock{}
	return &c
}

// diffFold compares the whole internal state of two folds: every field,
// the embedded foldkit parts' included, but the per-line scratch space.
func diffFold(a, b *Fold) string {
	if d := foldtest.StateDiff(a, b, "ln", "msg", "blk"); d != "" {
		return fmt.Sprintf("internal state differs: %s\n got  %+v\n want %+v", d, foldObserve(a), foldObserve(b))
	}
	return ""
}

// TestFoldSeqsStableUnderAppend checks the reparse-stability promise: after
// each appended line, every message already served either is unchanged or
// changed only as a back-patch (a tool got its result, a dialog its
// outcome, an approved plan its approval mode), and TakeBackpatch reports
// the lowest such seq.
func TestFoldSeqsStableUnderAppend(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			data := readFoldFixture(t, fx.path)
			f := NewFold()
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
						approvalModeLearned(p.Dialog, c.Dialog)
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
		})
	}
}

// chunkReader yields its data in pieces of varying sizes, like a file
// being read while it grows.
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(c.sizes[c.i%len(c.sizes)], len(p), len(c.data))
	c.i++
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestFoldReadFromEqualsWrite: ReadFrom, which reads straight onto a held
// line, folds exactly like Write, whatever sizes the reader returns,
// including after bytes fed with Write (a held partial line).
func TestFoldReadFromEqualsWrite(t *testing.T) {
	big := strings.Repeat("0123456789\tabcdef \"q\"\n", 40000) // ~1 MB, longer than a read
	extra := []byte(fxAssistant(t, "tool_use", fxToolUse("toolu_big", "Bash", fxObj{"command": "cat big"})) +
		fxResult(t, "toolu_big", big, false, fxObj{"toolUseResult": fxObj{"stdout": big}}) +
		`{"type":"api-request-blob","message":"` + strings.Repeat("z", 600000) + `"}` + "\n" +
		fxResult(t, "toolu_big", "late", false, nil) + fxUser(t, "after the big lines", nil))
	inputs := map[string][]byte{"big-lines": extra}
	for _, fx := range foldFixtures(t) {
		inputs[fx.name] = readFoldFixture(t, fx.path)
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			want := foldObserve(foldAll(data))
			for _, sizes := range [][]int{{1}, {7, 300, 1}, {4096}, {foldkit.ReadChunk}, {100000, 3}} {
				for _, pre := range []int{0, len(data) / 3} {
					f := NewFold()
					f.Write(data[:pre])
					n, err := f.ReadFrom(&chunkReader{data: data[pre:], sizes: sizes})
					if err != nil || n != int64(len(data)-pre) {
						t.Fatalf("ReadFrom = %d, %v; want %d, nil", n, err, len(data)-pre)
					}
					if d := foldDiffObserved(t, foldObserve(f), want); d != "" {
						t.Fatalf("chunks %v after %d written bytes: %s", sizes, pre, d)
					}
					if n, c := f.Held(); c > foldkit.PartialKeep && n == 0 {
						t.Errorf("kept a %d-byte buffer after ReadFrom", c)
					}
				}
			}
		})
	}
}

// TestFoldReadFromError returns a read error with the bytes read so far
// folded.
func TestFoldReadFromError(t *testing.T) {
	line := fxUser(t, "kept", nil)
	boom := errors.New("disk gone")
	f := NewFold()
	n, err := f.ReadFrom(io.MultiReader(strings.NewReader(line+line[:20]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || n != int64(len(line)+20) || f.Len() != 1 || f.Bytes() != n {
		t.Errorf("ReadFrom = %d, %v with %d messages, %d bytes; want %d, %v, 1 message", n, err, f.Len(), f.Bytes(), len(line)+20, boom)
	}
}

// approvalModeLearned reports whether an approved plan's outcome changed
// only by gaining its approval mode.
func approvalModeLearned(was, now *conv.Dialog) bool {
	if was == nil || now == nil || was.Outcome == nil || now.Outcome == nil || !was.Outcome.Approved || was.Outcome.ApprovalMode != "" || now.Outcome.ApprovalMode == "" {
		return false
	}
	o := *now.Outcome
	o.ApprovalMode = ""
	return reflect.DeepEqual(&o, was.Outcome)
}
