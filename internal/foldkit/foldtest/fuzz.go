package foldtest

import (
	"os"
	"path/filepath"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// FuzzSplit is a fuzz target's body: data never panics, split anywhere
// (twice, at s1 and s2) it folds exactly like the whole, and the stream
// keeps its invariants.
func (h Harness[F]) FuzzSplit(t *testing.T, data []byte, s1, s2 uint) {
	whole := h.All(data)
	want := Observe(whole)
	i, j := int(s1%uint(len(data)+1)), int(s2%uint(len(data)+1))
	if i > j {
		i, j = j, i
	}
	g := h.New()
	g.Write(data[:i])
	g.Write(data[i:j])
	g.Write(data[j:])
	if d := DiffObserved(Observe(g), want); d != "" {
		t.Fatalf("split at %d and %d: %s", i, j, d)
	}
	StreamInvariants(t, whole)
}

// StreamInvariants asserts what every fold must hold: seqs 1..Len with
// fresh hashes, kinds with their payloads, tool outputs within
// foldkit.OutputMax, no empty text, answered dialogs no longer
// answerable, and the state question exactly while a dialog is pending.
func StreamInvariants(t *testing.T, f Fold) {
	t.Helper()
	msgs, _ := f.Messages(0, 0, 0)
	if len(msgs) != f.Len() {
		t.Fatalf("Messages returned %d; Len %d", len(msgs), f.Len())
	}
	pending := 0
	for i, m := range msgs {
		if m.Seq != i+1 {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
		c := m
		c.SetHash()
		if c.ContentHash != m.ContentHash {
			t.Fatalf("seq %d: stale content hash", m.Seq)
		}
		switch m.Kind {
		case conv.KindTool:
			if m.Tool == nil || len(m.Tool.Output) > foldkit.OutputMax || m.Tool.OutputBytes < len(m.Tool.Output) {
				t.Fatalf("seq %d: bad tool %+v", m.Seq, m.Tool)
			}
		case conv.KindDialog:
			d := m.Dialog
			if d == nil {
				t.Fatalf("seq %d: dialog message without dialog", m.Seq)
			}
			if d.Outcome == nil {
				pending++
			} else if d.Answerable {
				t.Fatalf("seq %d: answered dialog still answerable", m.Seq)
			}
		case conv.KindLifecycle:
			if m.Lifecycle == nil {
				t.Fatalf("seq %d: lifecycle message without lifecycle", m.Seq)
			}
		case conv.KindText, conv.KindThinking:
			if m.Text == "" {
				t.Fatalf("seq %d: empty %s message", m.Seq, m.Kind)
			}
		default:
			t.Fatalf("seq %d: unknown kind %q", m.Seq, m.Kind)
		}
	}
	st := f.State()
	if !st.Valid() || st == conv.StateEnded {
		t.Fatalf("State() = %q", st)
	}
	if (st == conv.StateQuestion) != (pending > 0) || (f.PendingDialog() != nil) != (pending > 0) {
		t.Fatalf("state %s with %d pending dialogs", st, pending)
	}
}

// SeedSplits adds every file glob matches to f's corpus for FuzzSplit,
// split at a third and at half.
func SeedSplits(f *testing.F, glob string) {
	paths, _ := filepath.Glob(glob)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint(len(b)/3), uint(len(b)/2))
		}
	}
}
