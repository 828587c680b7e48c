package gitsnap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchRepo is a committed repository of n files of 40 lines each,
// spread over folders of 100.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	files := make(map[string]string, n)
	for i := range n {
		var body []byte
		for l := range 40 {
			body = fmt.Appendf(body, "file %d line %d: some ordinary source text\n", i, l)
		}
		files[fmt.Sprintf("pkg%03d/file%05d.go", i/100, i)] = string(body)
	}
	return newRepo(b, files)
}

// BenchmarkSnapshot10k: a 10,000-file repository, the first snapshot of a
// run (the index seeded from the operator's, every file stat'ed) and a
// later one after the agent changed 10 files.
func BenchmarkSnapshot10k(b *testing.B) {
	dir := benchRepo(b, 10000)
	r := open(b, dir)
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s := NewStore(filepath.Join(b.TempDir(), fmt.Sprint(i)))
			if _, err := s.Snapshot(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("subsequent", func(b *testing.B) {
		s := NewStore(filepath.Join(b.TempDir(), "s"))
		if _, err := s.Snapshot(ctx, r); err != nil {
			b.Fatal(err)
		}
		for i := 0; b.Loop(); i++ {
			for f := range 10 {
				p := filepath.Join(dir, fmt.Sprintf("pkg%03d/file%05d.go", f, f*100))
				if err := os.WriteFile(p, fmt.Appendf(nil, "changed %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := s.Snapshot(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDiff200: the changes list between two snapshots of a
// 10,000-file repository that differ in 200 files (150 edited, 25 added,
// 25 deleted).
func BenchmarkDiff200(b *testing.B) {
	dir := benchRepo(b, 10000)
	r := open(b, dir)
	ctx := context.Background()
	s := NewStore(filepath.Join(b.TempDir(), "s"))
	from, err := s.Snapshot(ctx, r)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 150 {
		p := filepath.Join(dir, fmt.Sprintf("pkg%03d/file%05d.go", i%100, (i%100)*100+i/100))
		body, _ := os.ReadFile(p)
		body = append(fmt.Appendf(nil, "// edited %d\n", i), body[:len(body)/2]...)
		os.WriteFile(p, body, 0o644)
	}
	for i := range 25 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("new/n%02d.go", i)), []byte("package x\n"), 0o644)
		os.Remove(filepath.Join(dir, fmt.Sprintf("pkg%03d/file%05d.go", 99, 9900+50+i)))
	}
	os.MkdirAll(filepath.Join(dir, "new"), 0o755)
	for i := range 25 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("new/n%02d.go", i)), fmt.Appendf(nil, "package x // %d\n", i), 0o644)
	}
	to, err := s.Snapshot(ctx, r)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := s.Diff(ctx, from, to)
	if err != nil || len(cs) != 200 {
		b.Fatalf("%d changes, %v; want 200", len(cs), err)
	}
	for b.Loop() {
		if _, err := s.Diff(ctx, from, to); err != nil {
			b.Fatal(err)
		}
	}
}
