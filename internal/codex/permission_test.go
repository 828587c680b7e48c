package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParsePatch(t *testing.T) {
	files := ParsePatch("*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Update File: b.go\n*** Move to: c.go\n@@ func f() {\n-\tx := 1\n+\tx := 2\n \treturn\n*** End of File\n*** Delete File: d.txt\n*** End Patch\n")
	if len(files) != 3 {
		t.Fatalf("got %+v; want three files", files)
	}
	if f := files[0]; f.Op != PatchAdd || f.Path != "a.txt" || strings.Join(f.Hunks[0].Lines, "|") != "+one|+two" {
		t.Errorf("add: %+v", f)
	}
	if f := files[1]; f.Op != PatchUpdate || f.MoveTo != "c.go" || len(f.Hunks) != 1 || f.Hunks[0].Context != "func f() {" || !f.Hunks[0].EOF || len(f.Hunks[0].Lines) != 3 {
		t.Errorf("update: %+v", f)
	}
	if f := files[2]; f.Op != PatchDelete || f.Path != "d.txt" {
		t.Errorf("delete: %+v", f)
	}
}

func TestPatchDiff(t *testing.T) {
	old := "package x\n\nfunc f() {\n\tx := 1\n\treturn\n}\n\nfunc g() {}\n"
	read := func(p string) (string, error) {
		if p == "/w/b.go" {
			return old, nil
		}
		return "", errors.New("no such file")
	}
	patch := "*** Begin Patch\n*** Update File: b.go\n@@ func f() {\n-\tx := 1\n+\tx := 2\n*** Add File: n.txt\n+hello\n*** Update File: gone.txt\n@@\n-a\n+b\n*** End Patch\n"
	in, _ := json.Marshal(map[string]string{"command": patch})
	p := PermissionFromHook(ToolApplyPatch, in, "/w", read)
	if p.Tool != ToolApplyPatch || len(p.Files) != 3 || p.Summary != "Update b.go, Add n.txt, Update gone.txt" {
		t.Fatalf("got %+v", p)
	}
	want := "--- a/w/b.go\n+++ b/w/b.go\n@@ -1,7 +1,7 @@\n package x\n \n func f() {\n-\tx := 1\n+\tx := 2\n \treturn\n }\n \n"
	if p.Files[0].Path != "/w/b.go" || p.Files[0].Diff != want {
		t.Errorf("update diff:\n%s\nwant:\n%s", p.Files[0].Diff, want)
	}
	if d := p.Files[1].Diff; d != "--- /dev/null\n+++ b/w/n.txt\n@@ -0,0 +1 @@\n+hello\n" {
		t.Errorf("add diff:\n%s", d)
	}
	// A file lab cannot read: the patch's own hunks, without line numbers.
	if d := p.Files[2].Diff; d != "--- a/w/gone.txt\n+++ b/w/gone.txt\n@@\n-a\n+b\n" {
		t.Errorf("unreadable diff:\n%s", d)
	}

	cmd, _ := json.Marshal(map[string]string{"command": "touch x && echo y", "description": "Do you want to?"})
	c := PermissionFromHook("Bash", cmd, "/w", read)
	if c.Tool != ToolExecCommand || c.Command != "touch x && echo y" || c.Description != "Do you want to?" {
		t.Fatalf("command approval: %+v", c)
	}
}

func TestDiffHunksSplitOnDistance(t *testing.T) {
	var a, b []string
	for i := range 30 {
		a = append(a, fmt.Sprintf("line %d", i))
		b = append(b, fmt.Sprintf("line %d", i))
	}
	b[2], b[25] = "changed early", "changed late"
	var w strings.Builder
	writeHunks(&w, a, b)
	if n := strings.Count(w.String(), "@@ -"); n != 2 {
		t.Fatalf("got %d hunks:\n%s", n, w.String())
	}
	if !strings.HasPrefix(w.String(), "@@ -1,6 +1,6 @@\n line 0\n line 1\n-line 2\n+changed early\n") {
		t.Fatalf("first hunk header:\n%s", w.String())
	}
}
