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

// BenchmarkChanges200: GET changes of a run in a 10,000-file repository
// where the agent changed 200 files (150 edited, 25 added, 25 deleted):
// a fresh snapshot of the folder plus the comparison.
func BenchmarkChanges200(b *testing.B) {
	files := map[string]string{}
	for i := range 10000 {
		var body strings.Builder
		for l := range 40 {
			fmt.Fprintf(&body, "file %d line %d: some ordinary source text\n", i, l)
		}
		files[fmt.Sprintf("pkg%03d/file%05d.go", i/100, i)] = body.String()
	}
	svc, repo := benchFixture(b, files)
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
