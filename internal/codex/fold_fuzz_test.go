package codex

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// FuzzFold: arbitrary bytes never panic, split anywhere (twice) they fold
// exactly like the whole, and the stream keeps its invariants.
func FuzzFold(f *testing.F) {
	paths, _ := filepath.Glob("testdata/fold/*.jsonl")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint(len(b)/3), uint(len(b)/2))
		}
	}
	f.Add([]byte(`{"timestamp":"t","ordinal":1,"type":"response_item","payload":{"type":"function_call","name":"request_user_input","call_id":"q","arguments":"{\"questions\":[{\"id\":\"a\",\"question\":\"q\",\"options\":[{\"label\":\"x\"}]}]}"}}`+"\n"+
		`{"timestamp":"t","ordinal":2,"type":"response_item","payload":{"type":"function_call_output","call_id":"q","output":"{\"answers\":{\"a\":{\"answers\":[\"x\"]}}}"}}`+"\n"), uint(10), uint(70))
	f.Fuzz(func(t *testing.T, data []byte, s1, s2 uint) {
		whole := foldAll(data)
		want := foldObserve(whole)
		i, j := int(s1%uint(len(data)+1)), int(s2%uint(len(data)+1))
		if i > j {
			i, j = j, i
		}
		g := NewFold()
		g.Write(data[:i])
		g.Write(data[i:j])
		g.Write(data[j:])
		if d := foldDiffObserved(t, foldObserve(g), want); d != "" {
			t.Fatalf("split at %d and %d: %s", i, j, d)
		}
		checkStreamInvariants(t, whole)
	})
}

// checkStreamInvariants asserts what every fold must hold.
func checkStreamInvariants(t *testing.T, f *Fold) {
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

// FuzzOutcome: any question shape and any recorded output derive an
// outcome that is never nil, dismissed without results or one result per
// question whose chosen labels are listed options (at most one: Codex
// questions are single-select), and derive it the same way twice.
func FuzzOutcome(f *testing.F) {
	f.Add([]byte(`{"questions":[{"id":"a","question":"Q","options":[{"label":"A"},{"label":"B"}]}]}`), `{"answers":{"a":{"answers":["B","user_note: x"]}}}`)
	f.Add([]byte(`{"questions":[{"question":"Q","options":[{"label":"A"}]},{"question":"R","options":[]}]}`), `{"answers":{"z":{"answers":["None of the above"]}}}`)
	f.Add([]byte(`{}`), `aborted by user after 1.0s`)
	f.Fuzz(func(t *testing.T, args []byte, output string) {
		d, ids := questionDialog("q", args)
		out := questionOutcome(d.Questions, ids, output)
		if out == nil {
			t.Fatal("nil outcome for a resolved question")
		}
		if out.Dismissed {
			if out.Results != nil {
				t.Fatalf("dismissed outcome carries results: %+v", out)
			}
		} else {
			if len(out.Results) != len(d.Questions) {
				t.Fatalf("%d results for %d questions", len(out.Results), len(d.Questions))
			}
			for i, res := range out.Results {
				q := d.Questions[i]
				if res.Question != q.Question || res.Chosen == nil {
					t.Fatalf("result %d = %+v for question %q", i, res, q.Question)
				}
				for _, c := range res.Chosen {
					found := false
					for _, o := range q.Options {
						found = found || o.Label == c
					}
					if !found {
						t.Fatalf("chosen %q is not an option of %q", c, q.Question)
					}
				}
			}
		}
		if again := questionOutcome(d.Questions, ids, output); !reflect.DeepEqual(again, out) {
			t.Fatalf("not deterministic: %+v then %+v", out, again)
		}
	})
}

// FuzzParseScreen: any pane text parses without panicking, and what it
// finds is consistent: at most one cursor row, rows numbered 1..n.
func FuzzParseScreen(f *testing.F) {
	panes, _ := filepath.Glob("testdata/captured/*.pane.txt")
	for _, p := range panes {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, capture string) {
		s := ParseScreen(capture)
		cursors := 0
		for i, r := range s.Rows {
			if r.Number != i+1 {
				t.Fatalf("row %d numbered %d", i, r.Number)
			}
			if r.Cursor {
				cursors++
			}
		}
		if cursors > 1 || (s.Kind == ScreenNone && len(s.Rows) > 0) {
			t.Fatalf("screen %+v", s)
		}
		ParsePrompt(capture)
	})
}
