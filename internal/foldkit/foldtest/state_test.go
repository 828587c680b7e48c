package foldtest

import (
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

type inner struct {
	n    int
	tags map[string][]int
}

type state struct {
	buf     []byte
	list    []int
	in      inner
	ptr     *inner
	fn      func()
	scratch []byte
	Public  string
}

func TestStateDiff(t *testing.T) {
	if d := StateDiff(&state{buf: []byte{}, list: []int{}}, &state{}); d != "" {
		t.Errorf("empty and nil slices: %s; want alike", d)
	}
	base := func() *state {
		return &state{buf: []byte("ab"), list: []int{1, 2}, in: inner{n: 1, tags: map[string][]int{"x": {1}}}, ptr: &inner{n: 2}, Public: "p"}
	}
	tests := []struct {
		name   string
		change func(s *state)
		want   string // substring of the difference; "" for none
	}{
		{"same", func(*state) {}, ""},
		{"a shorter slice", func(s *state) { s.list = s.list[:1] }, "list: got 1 elements, want 2"},
		{"empty map and nil alike", func(s *state) { s.ptr = &inner{n: 2, tags: map[string][]int{}} }, ""},
		{"bytes", func(s *state) { s.buf = []byte("ac") }, `buf: got "ac", want "ab"`},
		{"nested map", func(s *state) { s.in.tags["x"] = []int{2} }, "in.tags[x][0]: got 2, want 1"},
		{"map key", func(s *state) { s.in.tags = map[string][]int{"y": {1}} }, "in.tags: got key y"},
		{"through a pointer", func(s *state) { s.ptr = &inner{n: 3} }, "ptr.n: got 3, want 2"},
		{"func set", func(s *state) { s.fn = func() {} }, "fn: got nil func false"},
		{"scratch passed over", func(s *state) { s.scratch = []byte("x") }, ""},
		{"exported field", func(s *state) { s.Public = "q" }, `Public: got "q", want "p"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, got := base(), base()
			tc.change(got)
			d := StateDiff(got, want, "scratch")
			if tc.want == "" && d != "" || tc.want != "" && !strings.Contains(d, tc.want) {
				t.Errorf("StateDiff = %q; want %q", d, tc.want)
			}
		})
	}
}

// fold is the shape of an adapter's Fold: foldkit's parts embedded.
type fold struct {
	foldkit.Input
	foldkit.Stream
	own     int
	scratch []byte
}

// StateDiff reaches into the embedded foldkit parts' unexported state.
func TestStateDiffSeesFoldkitParts(t *testing.T) {
	peek := func([]byte) foldkit.Verdict { return foldkit.PeekFull }
	line := func([]byte) bool { return true }
	newFold := func() *fold {
		f := &fold{Stream: foldkit.NewStream("transcript")}
		f.Feed([]byte("a line\n"), peek, line)
		f.Push(conv.Message{Kind: conv.KindText, Text: "hi"})
		return f
	}
	clone := func(f *fold) *fold {
		c := *f
		c.Input, c.Stream = f.Input.Clone(nil), f.Stream.Clone()
		return &c
	}
	tests := []struct {
		change func(f *fold)
		want   string
	}{
		{func(f *fold) {}, ""},
		{func(f *fold) { f.scratch = []byte("x") }, ""},
		{func(f *fold) { f.SetTail(conv.StateWorking) }, "Stream.tail"},
		{func(f *fold) { f.TakeBackpatch() }, "Stream.backMark"},
		{func(f *fold) { f.At(0).Text = "ho" }, "Stream.chunks[0][0].Text"},
		{func(f *fold) { f.Feed([]byte("held"), peek, line) }, "Input.partial"},
		{func(f *fold) { f.own = 1 }, "own"},
	}
	for _, tc := range tests {
		a := newFold()
		b := clone(a)
		tc.change(b)
		if d := StateDiff(b, a, "scratch"); tc.want == "" && d != "" || !strings.Contains(d, tc.want) {
			t.Errorf("StateDiff = %q; want it to name %q", d, tc.want)
		}
	}
}
