package foldkit

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// toy is a line format for the tests: a line starting with '#' is
// bookkeeping, "bad" is malformed, anything else a record.
type toy struct {
	in   Input
	recs []string
}

func toyPeek(b []byte) Verdict {
	switch {
	case len(b) == 0:
		return PeekMore
	case b[0] == '#':
		return PeekSkip
	}
	return PeekFull
}

func (t *toy) line(b []byte) bool {
	if string(b) == "bad" {
		return false
	}
	t.recs = append(t.recs, string(b))
	return true
}

func (t *toy) write(s string) { t.in.Feed([]byte(s), toyPeek, t.line) }

const toyData = "one\n#bookkeeping that is long\n\n  \nbad\ntwo\n#x\nthree\npartial"

func TestInputCounts(t *testing.T) {
	var tt toy
	tt.write(toyData)
	if want := []string{"one", "two", "three"}; !slices.Equal(tt.recs, want) {
		t.Errorf("records %q; want %q", tt.recs, want)
	}
	// Blank lines and bookkeeping count as lines; only "bad" is skipped.
	if tt.in.Lines() != 8 || tt.in.SkippedLines() != 1 || tt.in.Bytes() != int64(len(toyData)) {
		t.Errorf("Lines %d Skipped %d Bytes %d; want 8, 1, %d", tt.in.Lines(), tt.in.SkippedLines(), tt.in.Bytes(), len(toyData))
	}
	if n, _ := tt.in.Held(); n != len("partial") {
		t.Errorf("holding %d bytes; want the partial line's %d", n, len("partial"))
	}
}

// Every split of the bytes gives the same records and counts as the whole.
func TestInputSplits(t *testing.T) {
	var whole toy
	whole.write(toyData)
	for i := range len(toyData) + 1 {
		for j := i; j <= len(toyData); j++ {
			var tt toy
			tt.write(toyData[:i])
			tt.write(toyData[i:j])
			tt.write(toyData[j:])
			if !slices.Equal(tt.recs, whole.recs) || tt.in.Lines() != whole.in.Lines() || tt.in.SkippedLines() != whole.in.SkippedLines() || tt.in.Bytes() != whole.in.Bytes() {
				t.Fatalf("split at %d, %d: %q, %d lines; want %q, %d", i, j, tt.recs, tt.in.Lines(), whole.recs, whole.in.Lines())
			}
		}
	}
}

// A bookkeeping line is dropped as it streams in; a shown one is held and
// its big buffer released once it completes.
func TestInputHolding(t *testing.T) {
	var tt toy
	tt.write("#")
	for range 100 {
		tt.write(strings.Repeat("y", 64<<10))
	}
	if _, c := tt.in.Held(); c > 4096 || !tt.in.Skipping() {
		t.Fatalf("holding %d bytes, skipping %v; want the line dropped", c, tt.in.Skipping())
	}
	tt.write("\nshown ")
	for range 100 {
		tt.write(strings.Repeat("z", 64<<10))
	}
	if n, _ := tt.in.Held(); n != 6+100<<16 || tt.in.Skipping() {
		t.Fatalf("holding %d bytes, skipping %v; want the shown line held", n, tt.in.Skipping())
	}
	tt.write("\n")
	if _, c := tt.in.Held(); c > PartialKeep || len(tt.recs) != 1 || len(tt.recs[0]) != 6+100<<16 {
		t.Errorf("kept a %d-byte buffer, %d records; want it released after the one line", c, len(tt.recs))
	}
}

// pieces yields its data in pieces of the given sizes, in turn.
type pieces struct {
	data  []byte
	sizes []int
	i     int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := min(p.sizes[p.i%len(p.sizes)], len(b), len(p.data))
	p.i++
	copy(b, p.data[:n])
	p.data = p.data[n:]
	return n, nil
}

// FeedFrom, which reads straight onto a held line, gives what Feed gives.
func TestInputFeedFrom(t *testing.T) {
	data := strings.Repeat("a record\n#skip "+strings.Repeat("s", 300000)+"\nlong "+strings.Repeat("l", 700000)+"\n", 3) + "tail"
	var whole toy
	whole.write(data)
	for _, sizes := range [][]int{{1, 7, 300}, {4096}, {ReadChunk}, {100000, 3}} {
		for _, pre := range []int{0, 5, len(data) / 3} {
			var tt toy
			tt.write(data[:pre])
			n, err := tt.in.FeedFrom(&pieces{data: []byte(data[pre:]), sizes: sizes}, toyPeek, tt.line)
			if err != nil || n != int64(len(data)-pre) {
				t.Fatalf("FeedFrom = %d, %v; want %d, nil", n, err, len(data)-pre)
			}
			if !slices.Equal(tt.recs, whole.recs) || tt.in.Lines() != whole.in.Lines() || tt.in.Bytes() != whole.in.Bytes() {
				t.Fatalf("pieces %v after %d bytes: %d records, %d lines; want %d, %d", sizes, pre, len(tt.recs), tt.in.Lines(), len(whole.recs), whole.in.Lines())
			}
			if held, _ := tt.in.Held(); held != len("tail") {
				t.Errorf("holding %d bytes; want the tail's %d", held, len("tail"))
			}
		}
	}
}

func TestInputFeedFromError(t *testing.T) {
	boom := errors.New("disk gone")
	var tt toy
	n, err := tt.in.FeedFrom(io.MultiReader(strings.NewReader("kept\nhalf"), iotest.ErrReader(boom)), toyPeek, tt.line)
	if !errors.Is(err, boom) || n != 9 || len(tt.recs) != 1 || tt.in.Bytes() != n {
		t.Errorf("FeedFrom = %d, %v with %d records, %d bytes; want 9, %v, 1 record", n, err, len(tt.recs), tt.in.Bytes(), boom)
	}
}

// A released long line's buffer serves the next fold's long line (the
// spare), which must see only its own bytes; a short line held after a
// huge one does not pin the huge buffer.
func TestInputSpareLineBuffer(t *testing.T) {
	var first toy
	big := strings.Repeat("x", 8<<20)
	if _, err := first.in.FeedFrom(strings.NewReader(big+"\n"), toyPeek, first.line); err != nil || len(first.recs) != 1 || len(first.recs[0]) != len(big) {
		t.Fatalf("first fold: %v, %d records", err, len(first.recs))
	}
	if _, c := first.in.Held(); c != 0 {
		t.Fatalf("kept a %d-byte buffer after ReadFrom", c)
	}
	var second toy
	line := strings.Repeat("y", 3<<20)
	if _, err := second.in.FeedFrom(iotest.HalfReader(strings.NewReader(line+"\ntail")), toyPeek, second.line); err != nil {
		t.Fatal(err)
	}
	if len(second.recs) != 1 || second.recs[0] != line {
		t.Fatalf("second fold read %d records of %d bytes; want its own line alone", len(second.recs), len(second.recs[0]))
	}
	var third toy
	third.write(strings.Repeat("z", PartialKeep+1))
	if n, c := third.in.Held(); n != PartialKeep+1 || c > spareSlack*2*n {
		t.Fatalf("holding %d bytes in a %d-byte buffer; want at most %d× what it needs", n, c, spareSlack)
	}
}

// LineStart locates each folded line in the file, whatever the split and
// whichever path fed it (Feed, or FeedFrom reading onto a held line).
func TestLineStartLocatesEachLine(t *testing.T) {
	data := toyData + "\n" + strings.Repeat("x", 300<<10) + "\n#" + strings.Repeat("y", 300<<10) + "\nlast\n"
	check := func(t *testing.T, feed func(in *Input, line Line)) {
		t.Helper()
		var in Input
		n := 0
		feed(&in, func(b []byte) bool {
			start := in.LineStart()
			if got := data[start : start+int64(len(b))]; got != string(b) {
				t.Fatalf("line %q located at %d, where the file has %q", clip(b), start, clip([]byte(got)))
			}
			n++
			return true
		})
		if n != 7 {
			t.Fatalf("folded %d lines; want 7", n)
		}
	}
	for _, cut := range []int{1, 3, 7, 64, 4096, len(data)} {
		t.Run("Feed"+strconv.Itoa(cut), func(t *testing.T) {
			check(t, func(in *Input, line Line) {
				for p := []byte(data); len(p) > 0; {
					k := min(cut, len(p))
					in.Feed(p[:k], toyPeek, line)
					p = p[k:]
				}
			})
		})
	}
	t.Run("FeedFrom", func(t *testing.T) {
		check(t, func(in *Input, line Line) {
			if _, err := in.FeedFrom(iotest.HalfReader(strings.NewReader(data)), toyPeek, line); err != nil {
				t.Fatal(err)
			}
		})
	})
}

func clip(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}
