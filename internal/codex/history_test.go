package codex

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"lab/internal/conv"
)

func TestHistory(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	put := func(day, name, fixture string, mtime time.Time) {
		dir := filepath.Join(root, day)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile("testdata/captured/" + fixture + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		os.Chtimes(p, mtime, mtime)
	}
	now := time.Now().Truncate(time.Second)
	put("2026/12/01", "rollout-2026-12-01T03-51-14-01a22fba-63c4-7833-a162-b71b1a491e8a.jsonl", "text", now.Add(-time.Hour))
	put("2026/12/02", "rollout-2026-12-02T09-00-00-01a22fba-6e16-7153-b038-c28a9869afd2.jsonl", "resumed", now)
	put("2026/12/02", "not-a-rollout.jsonl", "text", now)
	os.WriteFile(filepath.Join(root, "stray.jsonl"), []byte("{}"), 0o644)

	h := NewHistory(root)
	got, err := h.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []conv.Session{
		{ID: "01a22fba-6e16-7153-b038-c28a9869afd2", Provider: Name, ProjectPath: "/tmp/lab/work", Title: "lab:text first"},
		{ID: "01a22fba-63c4-7833-a162-b71b1a491e8a", Provider: Name, ProjectPath: "/tmp/lab/work", Title: "lab:text hello"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v; want %d sessions", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Provider != w.Provider || g.ProjectPath != w.ProjectPath || g.Title != w.Title || g.Size == 0 {
			t.Errorf("session %d = %+v; want %+v", i, g, w)
		}
		// The index counts and searches a session by its file.
		if p, _ := h.Path(g.ID); g.TranscriptPath == "" || g.TranscriptPath != p {
			t.Errorf("session %d: transcript path %q; want %q", i, g.TranscriptPath, p)
		}
	}
	p, err := h.Path("01A22FBA-63C4-7833-A162-B71B1A491E8A")
	if err != nil || filepath.Base(filepath.Dir(p)) != "01" {
		t.Fatalf("Path = %q, %v", p, err)
	}
	if _, err := h.Path("01a22fba-0000-0000-0000-000000000000"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("missing session: %v; want not found", err)
	}
	if _, err := h.Path("../../etc/passwd"); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("bad id: %v; want invalid", err)
	}
	if s, err := NewHistory(filepath.Join(root, "none")).List(); err != nil || len(s) != 0 {
		t.Fatalf("missing folder: %v, %v; want no sessions", s, err)
	}
}
