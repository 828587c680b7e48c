package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeTranscript(t *testing.T, root, slug, id string, mtime time.Time, lines ...string) string {
	t.Helper()
	dir := filepath.Join(root, slug)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHistoryListsSessionsNewestFirst(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	big := `{"type":"api-request-blob","blob":"` + strings.Repeat("x", 300<<10) + `"}`
	writeTranscript(t, root, "-tmp-a", "aaaa-1", base,
		`{"type":"permission-mode","permissionMode":"auto","sessionId":"aaaa-1"}`,
		`{"type":"user","isMeta":true,"cwd":"/tmp/a","sessionId":"aaaa-1","message":{"role":"user","content":"Caveat: ignore"}}`,
		`{"type":"user","cwd":"/tmp/a","sessionId":"aaaa-1","message":{"role":"user","content":"<command-name>/clear</command-name>"}}`,
		`{"type":"user","cwd":"/tmp/a","sessionId":"aaaa-1","message":{"role":"user","content":"Fix   the\nbuild"}}`)
	writeTranscript(t, root, "-tmp-b-work", "bbbb-2", base.Add(time.Hour),
		big,
		`{"type":"user","cwd":"/tmp/b/work","sessionId":"bbbb-2","message":{"role":"user","content":[{"type":"text","text":"Write docs"}]}}`)
	writeTranscript(t, root, "-tmp-b-work", "cccc-3", base.Add(2*time.Hour),
		`{"type":"user","cwd":"/tmp/b/work","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]}}`,
		`not json at all`)
	// Not transcripts: wrong suffix, bad name, a folder.
	os.WriteFile(filepath.Join(root, "-tmp-a", "notes.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "-tmp-a", ".hidden.jsonl"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(root, "-tmp-a", "sub.jsonl"), 0o755)

	h := NewHistory(root)
	got, err := h.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, project, title string }{
		{"cccc-3", "/tmp/b/work", ""},
		{"bbbb-2", "/tmp/b/work", "Write docs"},
		{"aaaa-1", "/tmp/a", "Fix the build"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sessions %+v; want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || g.ProjectPath != w.project || g.Title != w.title {
			t.Errorf("session %d: got {%s %s %q}; want {%s %s %q}", i, g.ID, g.ProjectPath, g.Title, w.id, w.project, w.title)
		}
		if g.Size <= 0 || g.ModTime.IsZero() {
			t.Errorf("session %d: size %d mtime %v; want both set", i, g.Size, g.ModTime)
		}
	}
	p, err := h.Path("bbbb-2")
	if err != nil || filepath.Base(p) != "bbbb-2.jsonl" {
		t.Fatalf("Path(bbbb-2) = %q, %v", p, err)
	}
	for _, bad := range []string{"../etc/passwd", "", "a/b", ".hidden"} {
		if _, err := h.Path(bad); err == nil {
			t.Errorf("Path(%q) = nil error; want invalid", bad)
		}
	}
	if _, err := h.Path("dddd-4"); err == nil {
		t.Error("Path(missing) = nil error; want not found")
	}
}

func TestHistoryMissingRootIsEmpty(t *testing.T) {
	got, err := NewHistory(filepath.Join(t.TempDir(), "nope")).List()
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v; want empty, nil", got, err)
	}
}

func TestHistoryRereadsChangedFile(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	writeTranscript(t, root, "-p", "s1", base, `{"type":"system","cwd":"/p"}`)
	h := NewHistory(root)
	got, _ := h.List()
	if len(got) != 1 || got[0].Title != "" {
		t.Fatalf("got %+v; want one untitled session", got)
	}
	writeTranscript(t, root, "-p", "s1", base.Add(time.Minute), `{"type":"system","cwd":"/p"}`,
		`{"type":"user","cwd":"/p","message":{"role":"user","content":"Now titled"}}`)
	got, _ = h.List()
	if len(got) != 1 || got[0].Title != "Now titled" {
		t.Fatalf("got %+v; want title from the grown file", got)
	}
}
