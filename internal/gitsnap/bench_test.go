package gitsnap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// laps records each iteration's time and reports the median and the 95th
// percentile beside the mean.
type laps struct {
	b    *testing.B
	took []time.Duration
}

func (l *laps) time(f func()) {
	t := time.Now()
	f()
	l.took = append(l.took, time.Since(t))
}

func (l *laps) report() {
	if len(l.took) == 0 {
		return
	}
	slices.Sort(l.took)
	at := func(q float64) float64 {
		return float64(l.took[min(len(l.took)-1, int(q*float64(len(l.took))))].Microseconds()) / 1000
	}
	l.b.ReportMetric(at(0.5), "p50-ms")
	l.b.ReportMetric(at(0.95), "p95-ms")
}

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

// BenchmarkSnapshot10k: a 10,000-file repository (400,000 lines, 18 MB),
// the first snapshot of a run (the index seeded from the operator's,
// every file stat'ed), the same without an index to seed from, and a
// later one after the agent changed 10 files.
func BenchmarkSnapshot10k(b *testing.B) {
	dir := benchRepo(b, 10000)
	r := open(b, dir)
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		l := laps{b: b}
		for i := 0; b.Loop(); i++ {
			s := NewStore(filepath.Join(b.TempDir(), fmt.Sprint(i)))
			l.time(func() {
				if _, err := s.Snapshot(ctx, r); err != nil {
					b.Fatal(err)
				}
			})
		}
		l.report()
	})
	// Without the operator's index to start from (none yet, or one this
	// git cannot read): every file is read and hashed.
	b.Run("first-unseeded", func(b *testing.B) {
		bare := r
		bare.GitDir = b.TempDir()
		l := laps{b: b}
		for i := 0; b.Loop(); i++ {
			s := NewStore(filepath.Join(b.TempDir(), fmt.Sprint(i)))
			l.time(func() {
				if _, err := s.Snapshot(ctx, bare); err != nil {
					b.Fatal(err)
				}
			})
		}
		l.report()
	})
	b.Run("subsequent", func(b *testing.B) {
		s := NewStore(filepath.Join(b.TempDir(), "s"))
		if _, err := s.Snapshot(ctx, r); err != nil {
			b.Fatal(err)
		}
		l := laps{b: b}
		for i := 0; b.Loop(); i++ {
			for f := range 10 {
				p := filepath.Join(dir, fmt.Sprintf("pkg%03d/file%05d.go", f, f*100))
				if err := os.WriteFile(p, fmt.Appendf(nil, "changed %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			l.time(func() {
				if _, err := s.Snapshot(ctx, r); err != nil {
					b.Fatal(err)
				}
			})
		}
		l.report()
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
	l := laps{b: b}
	for b.Loop() {
		l.time(func() {
			if _, err := s.Diff(ctx, from, to); err != nil {
				b.Fatal(err)
			}
		})
	}
	l.report()
}
