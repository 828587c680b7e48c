package claude

import (
	"reflect"
	"testing"

	"lab/internal/foldkit/foldtest"
)

// FuzzFold: arbitrary bytes never panic, split anywhere (twice) they fold
// exactly like the whole, and the stream keeps its invariants.
func FuzzFold(f *testing.F) {
	foldtest.SeedSplits(f, "testdata/fold/*.jsonl")
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"+`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{"questions":[{"question":"q","options":[{"label":"a"}]}]}}]}}`+"\n"), uint(10), uint(70))
	f.Fuzz(foldHarness.FuzzSplit)
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
