package changes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/gitsnap"
	"lab/internal/store"
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
	slices.Sort(l.took)
	at := func(q float64) float64 {
		return float64(l.took[min(len(l.took)-1, int(q*float64(len(l.took))))].Microseconds()) / 1000
	}
	l.b.ReportMetric(at(0.5), "p50-ms")
	l.b.ReportMetric(at(0.95), "p95-ms")
}

// benchFixture is a Service with run r1 started (its start snapshot
// taken) in a committed repository of files.
func benchFixture(b *testing.B, files map[string]string) (*Service, string) {
	b.Helper()
	b.Setenv("HOME", b.TempDir())
	repo := b.TempDir()
	writeFiles(b, repo, files)
	gitIn(b, repo, "init", "--quiet")
	gitIn(b, repo, "add", "--all")
	gitIn(b, repo, "commit", "--quiet", "-m", "start")
	db := openDB(b, filepath.Join(b.TempDir(), "lab.db"))
	rec := store.RunRecord{ID: "r1", Cwd: repo, Title: "t", TmuxSession: "lab-r1", RunDir: b.TempDir(), StartedAt: time.Now()}
	if err := db.CreateRun(context.Background(), rec); err != nil {
		b.Fatal(err)
	}
	svc := New(Config{DB: db})
	b.Cleanup(svc.Close)
	svc.Started(context.Background(), rec)
	return svc, repo
}

// benchRepo is a committed repository of n files of 40 lines each,
// spread over folders of 100.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	b.Setenv("HOME", b.TempDir())
	dir := b.TempDir()
	writeFiles(b, dir, benchFiles(n))
	gitIn(b, dir, "init", "--quiet")
	gitIn(b, dir, "add", "--all")
	gitIn(b, dir, "commit", "--quiet", "-m", "start")
	return dir
}

// benchFiles are n files of 40 lines each, in folders of 100.
func benchFiles(n int) map[string]string {
	files := make(map[string]string, n)
	for i := range n {
		var body []byte
		for l := range 40 {
			body = fmt.Appendf(body, "file %d line %d: some ordinary source text\n", i, l)
		}
		files[fmt.Sprintf("pkg%03d/file%05d.go", i/100, i)] = string(body)
	}
	return files
}

// BenchmarkSnapshot10k: a 10,000-file repository (400,000 lines, 18 MB),
// the first snapshot of a run (the index seeded from the operator's,
// every file stat'ed), the same without an index to seed from, and a
// later one after the agent changed 10 files.
func BenchmarkSnapshot10k(b *testing.B) {
	dir := benchRepo(b, 10000)
	r := openRepo(b, dir)
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		l := laps{b: b}
		for i := 0; b.Loop(); i++ {
			s := gitsnap.NewStore(filepath.Join(b.TempDir(), fmt.Sprint(i)))
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
			s := gitsnap.NewStore(filepath.Join(b.TempDir(), fmt.Sprint(i)))
			l.time(func() {
				if _, err := s.Snapshot(ctx, bare); err != nil {
					b.Fatal(err)
				}
			})
		}
		l.report()
	})
	b.Run("subsequent", func(b *testing.B) {
		s := gitsnap.NewStore(filepath.Join(b.TempDir(), "s"))
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
	r := openRepo(b, dir)
	ctx := context.Background()
	s := gitsnap.NewStore(filepath.Join(b.TempDir(), "s"))
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

// openRepo opens the repository at dir.
func openRepo(b *testing.B, dir string) gitsnap.Repo {
	b.Helper()
	r, err := gitsnap.Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkChanges200: GET changes of a run in a 10,000-file repository
// where the agent changed 200 files (150 edited, 25 added, 25 deleted):
// a fresh snapshot of the folder plus the comparison.
func BenchmarkChanges200(b *testing.B) {
	svc, repo := benchFixture(b, benchFiles(10000))
	for i := range 150 {
		p := filepath.Join(repo, fmt.Sprintf("pkg%03d/file%05d.go", i%100, (i%100)*100+i/100))
		body, _ := os.ReadFile(p)
		os.WriteFile(p, append([]byte("// edited\n"), body[:len(body)/2]...), 0o644)
	}
	os.MkdirAll(filepath.Join(repo, "new"), 0o755)
	for i := range 25 {
		os.WriteFile(filepath.Join(repo, fmt.Sprintf("new/n%02d.go", i)), fmt.Appendf(nil, "package x // %d\n", i), 0o644)
		os.Remove(filepath.Join(repo, fmt.Sprintf("pkg099/file%05d.go", 9950+i)))
	}
	c, err := svc.Changes(context.Background(), "r1", conv.SinceStart)
	if err != nil || len(c.Files) != 200 {
		b.Fatalf("%d files, %v; want 200", len(c.Files), err)
	}
	l := laps{b: b}
	for b.Loop() {
		l.time(func() {
			if _, err := svc.Changes(context.Background(), "r1", conv.SinceStart); err != nil {
				b.Fatal(err)
			}
		})
	}
	l.report()
}

// BenchmarkDiff5000: GET the diff of a 5,000-line file of which the agent
// changed every 20th line (250 changes, one hunk each), whole (a fresh
// snapshot, finding the change, both sides read, the unified diff).
func BenchmarkDiff5000(b *testing.B) {
	var old, cur strings.Builder
	for l := range 5000 {
		fmt.Fprintf(&old, "\tline %d of a long source file, with some text on it\n", l)
		if l%20 == 7 {
			fmt.Fprintf(&cur, "\tline %d changed by the agent\n", l)
		} else {
			fmt.Fprintf(&cur, "\tline %d of a long source file, with some text on it\n", l)
		}
	}
	svc, repo := benchFixture(b, map[string]string{"big.go": old.String(), "other.txt": "x\n"})
	os.WriteFile(filepath.Join(repo, "big.go"), []byte(cur.String()), 0o644)
	d, err := svc.Diff(context.Background(), "r1", "big.go", conv.SinceStart)
	if err != nil || strings.Count(d.Diff, "\n+\tline") != 250 {
		b.Fatalf("diff with %d added lines, %v; want 250", strings.Count(d.Diff, "\n+\tline"), err)
	}
	l := laps{b: b}
	for b.Loop() {
		l.time(func() {
			if _, err := svc.Diff(context.Background(), "r1", "big.go", conv.SinceStart); err != nil {
				b.Fatal(err)
			}
		})
	}
	l.report()
}
