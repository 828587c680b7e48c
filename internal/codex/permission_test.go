package codex

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"lab/internal/conv"
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
	d := PermissionDialog("c", ToolApplyPatch, in, "/w", read)
	p := d.Permission
	if d.Kind != conv.DialogPermission || d.ToolID != "c" || !d.Answerable || p.Tool != ToolApplyPatch || p.Path != "/w/b.go, /w/n.txt, /w/gone.txt" {
		t.Fatalf("got %+v %+v", d, p)
	}
	want := strings.Join([]string{
		// The update, against the file on disk, with line numbers.
		"--- /w/b.go\n+++ /w/b.go\n@@ -1,7 +1,7 @@\n package x\n \n func f() {\n-\tx := 1\n+\tx := 2\n \treturn\n }\n ",
		// A new file: every line added.
		"--- /w/n.txt\n+++ /w/n.txt\n@@ -0,0 +1 @@\n+hello",
		// A file lab cannot read: the patch's own hunks, without numbers.
		"--- /w/gone.txt\n+++ /w/gone.txt\n@@\n-a\n+b",
	}, "\n")
	if p.Diff != want {
		t.Errorf("diff:\n%s\nwant:\n%s", p.Diff, want)
	}
	cmd, _ := json.Marshal(map[string]string{"command": "touch x && echo y", "description": "Do you want to?"})
	c := PermissionDialog("e", "Bash", cmd, "/w", read).Permission
	if c.Tool != ToolExecCommand || c.Command != "touch x && echo y" || c.Description != "Do you want to?" {
		t.Fatalf("command approval: %+v", c)
	}
	other := PermissionDialog("m", "mcp__srv__tool", json.RawMessage(`{"b":[1],"a":"x"}`), "/w", read).Permission
	if other.Summary != "a: x\nb: [1]" {
		t.Fatalf("other tool summary %q", other.Summary)
	}
}
