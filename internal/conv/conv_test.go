package conv

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The domain package stays free of I/O and of every other lab package, so
// adapters meet only through it.
func TestImportsNothingOfOurs(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	allowed := map[string]bool{"encoding/json": true, "errors": true, "fmt": true, "hash/fnv": true, "slices": true, "strings": true, "time": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if !allowed[path] {
				t.Errorf("%s imports %s; conv may import only %v", f, path, allowed)
			}
		}
	}
}

func TestContentHashTracksVisibleContent(t *testing.T) {
	tool := Message{Seq: 3, Kind: KindTool, Tool: &ToolCall{ID: "t1", Name: "RunCommand", Input: "ls", Status: ToolRunning}}
	tool.SetHash()
	running := tool.ContentHash
	moved := tool
	moved.Seq = 9
	moved.SetHash()
	if moved.ContentHash != running {
		t.Fatalf("hash changed with seq alone: %s vs %s", moved.ContentHash, running)
	}
	tool.Tool = &ToolCall{ID: "t1", Name: "RunCommand", Input: "ls", Status: ToolOK, Output: "a.go"}
	tool.SetHash()
	if tool.ContentHash == running {
		t.Fatal("hash did not change when the tool got its result")
	}
	d := Message{Kind: KindDialog, Dialog: &Dialog{ToolID: "q", Kind: DialogQuestion}}
	d.SetHash()
	pending := d.ContentHash
	d.Dialog = &Dialog{ToolID: "q", Kind: DialogQuestion, Outcome: &Outcome{Dismissed: true}}
	d.SetHash()
	if d.ContentHash == pending {
		t.Fatal("hash did not change when the dialog got its outcome")
	}
}

func TestErrorKinds(t *testing.T) {
	base := errors.New("disk on fire")
	err := fmt.Errorf("saving: %w", Wrap(EConflict, base, "the dialog changed"))
	if KindOf(err) != EConflict || MessageOf(err) != "the dialog changed" || !errors.Is(err, base) {
		t.Fatalf("got kind %s message %q is-base %v", KindOf(err), MessageOf(err), errors.Is(err, base))
	}
	if KindOf(base) != EInternal || MessageOf(base) != "internal error" {
		t.Fatalf("plain error: got kind %s message %q; want internal, a generic message", KindOf(base), MessageOf(base))
	}
	if (&Dialog{}).Pending() != true || (&Dialog{Outcome: &Outcome{}}).Pending() || (*Dialog)(nil).Pending() {
		t.Fatal("Pending: want true only for a dialog without an outcome")
	}
}

func TestCloneIsDeep(t *testing.T) {
	d := &Dialog{ToolID: "q", Questions: []Question{{Question: "Q?", Options: []Option{{Label: "A"}}}}, PlanRows: []string{"Yes"},
		Outcome: &Outcome{Results: []QuestionResult{{Question: "Q?", Chosen: []string{"A"}}}}}
	c := d.Clone()
	c.Questions[0].Options[0].Label = "changed"
	c.PlanRows[0] = "changed"
	c.Outcome.Results[0].Chosen[0] = "changed"
	if d.Questions[0].Options[0].Label != "A" || d.PlanRows[0] != "Yes" || d.Outcome.Results[0].Chosen[0] != "A" {
		t.Fatalf("changing the clone changed the original: %+v", d)
	}
	if (*Dialog)(nil).Clone() != nil || (*Outcome)(nil).Clone() != nil {
		t.Fatal("Clone of nil: want nil")
	}
}
