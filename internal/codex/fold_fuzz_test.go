package codex

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lab/internal/clikit"
	"lab/internal/foldkit/foldtest"
)

// FuzzFold: arbitrary bytes never panic, split anywhere (twice) they fold
// exactly like the whole, and the stream keeps its invariants.
func FuzzFold(f *testing.F) {
	foldtest.SeedSplits(f, "testdata/fold/*.jsonl")
	f.Add([]byte(`{"timestamp":"t","ordinal":1,"type":"response_item","payload":{"type":"function_call","name":"request_user_input","call_id":"q","arguments":"{\"questions\":[{\"id\":\"a\",\"question\":\"q\",\"options\":[{\"label\":\"x\"}]}]}"}}`+"\n"+
		`{"timestamp":"t","ordinal":2,"type":"response_item","payload":{"type":"function_call_output","call_id":"q","output":"{\"answers\":{\"a\":{\"answers\":[\"x\"]}}}"}}`+"\n"), uint(10), uint(70))
	f.Fuzz(foldHarness.FuzzSplit)
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
		if d := (driver{}).Drawing(capture); d != "" && !strings.Contains(clikit.Squash(capture), clikit.Squash(strings.Fields(d)[0])) {
			t.Fatalf("drawing %q: its first word is not on the pane", d)
		}
	})
}
