package claude

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
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"+`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{"questions":[{"question":"q","options":[{"label":"a"}]}]}}]}}`+"\n"), uint(10), uint(70))
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

// FuzzOutcome: any question shape and any recorded resolution derive an
// outcome that is never nil, dismissed without results or one result per
// question whose chosen labels are all listed options; plans likewise.
func FuzzOutcome(f *testing.F) {
	f.Add([]byte(`{"questions":[{"question":"Q","multiSelect":true,"options":[{"label":"A, B"},{"label":"A"},{"label":"C"}]}]}`),
		[]byte(`{"answers":{"Q":"A, B, A, free, text"}}`), "", false)
	f.Add([]byte(`{"questions":[{"question":"Q","options":[{"label":"A"}]},{"question":"R","options":[]}]}`),
		[]byte(`{"answers":{},"afkTimeoutMs":60000}`), "", false)
	f.Add([]byte(`{"plan":"# P"}`), []byte(`"Error: rejected. To tell you how to proceed, the user said:\nno"`), "user-rejected", true)
	f.Add([]byte(`{}`), []byte(`"User rejected tool use"`), "user-rejected", true)
	f.Fuzz(func(t *testing.T, input, result []byte, denial string, isError bool) {
		r := foldResolution{result: result, denial: denial, isError: isError, content: result}
		if len(result) == 0 {
			r.result = nil
		}
		qd := foldQuestionDialog("t", input)
		out := deriveOutcome(qd, r)
		if out == nil {
			t.Fatal("nil outcome for a resolved question")
		}
		if out.Dismissed {
			if out.Results != nil || out.Approved || out.Feedback != "" {
				t.Fatalf("dismissed outcome carries an answer: %+v", out)
			}
		} else {
			if len(out.Results) != len(qd.Questions) {
				t.Fatalf("%d results for %d questions", len(out.Results), len(qd.Questions))
			}
			for i, res := range out.Results {
				q := qd.Questions[i]
				if res.Question != q.Question || res.Chosen == nil {
					t.Fatalf("result %d = %+v for question %q", i, res, q.Question)
				}
				if !q.MultiSelect && len(res.Chosen) > 1 {
					t.Fatalf("single-select result with %d labels", len(res.Chosen))
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
		if again := deriveOutcome(qd, r); !reflect.DeepEqual(again, out) {
			t.Fatalf("not deterministic: %+v then %+v", out, again)
		}
		po := deriveOutcome(foldPlanDialog("t", input), r)
		if po == nil || po.Results != nil || (po.Dismissed && (po.Approved || po.Feedback != "")) || (po.Approved && po.Feedback != "") {
			t.Fatalf("bad plan outcome %+v", po)
		}
	})
}
