package changes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// fixture is a Service over a real database and a real git repository.
type fixture struct {
	t    *testing.T
	db   *store.DB
	svc  *Service
	repo string
	rec  store.RunRecord
}

func gitIn(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newFixture makes a committed repository (files) and run r1 in it; git
// is not asked when git is false (a plain folder).
func newFixture(t *testing.T, git bool, files map[string]string) *fixture {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	repo := t.TempDir()
	writeFiles(t, repo, files)
	if git {
		gitIn(t, repo, "init", "--quiet")
		gitIn(t, repo, "add", "--all")
		gitIn(t, repo, "commit", "--quiet", "--allow-empty", "-m", "start")
	}
	f := &fixture{t: t, repo: repo, db: openDB(t, filepath.Join(t.TempDir(), "lab.db"))}
	f.rec = store.RunRecord{ID: "r1", Cwd: repo, Title: "t", TmuxSession: "lab-r1", RunDir: t.TempDir(), StartedAt: time.Now()}
	if err := f.db.CreateRun(context.Background(), f.rec); err != nil {
		t.Fatal(err)
	}
	f.svc = New(Config{DB: f.db})
	t.Cleanup(f.svc.Close)
	return f
}

// waitSnapshots polls until the run has n snapshots.
func (f *fixture) waitSnapshots(n int) []store.Snapshot {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		snaps, err := f.db.Snapshots(context.Background(), f.rec.ID)
		if err != nil {
			f.t.Fatal(err)
		}
		if len(snaps) == n {
			return snaps
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%d snapshots; want %d", len(snaps), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitSettled polls until the worker has no turn snapshot to take.
func (f *fixture) waitSettled() {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !f.svc.settled() {
		if time.Now().After(deadline) {
			f.t.Fatal("the snapshot worker never settled")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *fixture) changes(since conv.Since) conv.Changes {
	f.t.Helper()
	c, err := f.svc.Changes(context.Background(), f.rec.ID, since)
	if err != nil {
		f.t.Fatalf("Changes(%s): %v", since, err)
	}
	return c
}

// paths lists the changed files as "status path".
func paths(c conv.Changes) string {
	var out []string
	for _, fc := range c.Files {
		out = append(out, string(fc.Status)+" "+fc.Path)
	}
	return strings.Join(out, ", ")
}

// Two turns: "since turn" shows the current turn's files only (while it
// works and after it ended), "since start" both; the snapshots survive a
// new Service (a restart of lab) and go when the run is archived.
func TestChangesOverTurns(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, true, map[string]string{"keep.txt": "hello\n"})
	f.svc.Started(ctx, f.rec)
	f.waitSnapshots(1)
	if c := f.changes(conv.SinceStart); len(c.Files) != 0 || c.Current != "folder" {
		t.Fatalf("changes before any work: %+v", c)
	}

	// Turn 1 writes a file.
	f.svc.Turn("r1", 1, conv.StateWorking)
	writeFiles(t, f.repo, map[string]string{"one.txt": "1\n"})
	if got := paths(f.changes(conv.SinceTurn)); got != "added one.txt" {
		t.Fatalf("since turn during turn 1: %s", got)
	}
	f.svc.Turn("r1", 1, conv.StateNeedsInput)
	f.waitSnapshots(2)
	if got := paths(f.changes(conv.SinceTurn)); got != "added one.txt" {
		t.Fatalf("since turn after turn 1: %s", got)
	}

	// Turn 2 edits another.
	f.svc.Turn("r1", 2, conv.StateWorking)
	writeFiles(t, f.repo, map[string]string{"keep.txt": "hello, edited\n"})
	if got := paths(f.changes(conv.SinceTurn)); got != "modified keep.txt" {
		t.Fatalf("since turn during turn 2: %s", got)
	}
	f.svc.Turn("r1", 2, conv.StateNeedsInput)
	snaps := f.waitSnapshots(3)
	if snaps[2].Prompts != 2 || snaps[1].Prompts != 1 || snaps[0].Prompts != 0 {
		t.Fatalf("snapshots %+v; want prompts 0, 1, 2", snaps)
	}
	c := f.changes(conv.SinceTurn)
	if got := paths(c); got != "modified keep.txt" || c.Base.Turn != 1 || c.Latest.Turn != 2 || c.Added != 1 || c.Removed != 1 {
		t.Fatalf("since turn after turn 2: %s %+v", got, c)
	}
	if got := paths(f.changes(conv.SinceStart)); got != "modified keep.txt, added one.txt" {
		t.Fatalf("since start: %s", got)
	}

	// A quiet report of the same turn takes no new snapshot.
	f.svc.Turn("r1", 2, conv.StateIdle)
	f.svc.Turn("r1", 2, conv.StateEnded)
	f.waitSettled()
	f.waitSnapshots(3)

	// Restart: a new Service reads the same snapshots; the run's last
	// turn is its last snapshot's.
	f.svc.Close()
	f.svc = New(Config{DB: f.db})
	t.Cleanup(f.svc.Close)
	if got := paths(f.changes(conv.SinceTurn)); got != "modified keep.txt" {
		t.Fatalf("since turn after a restart: %s", got)
	}

	// Archived: the snapshots and their store go.
	if _, err := f.db.EndRun(ctx, "r1", time.Now(), "stopped"); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := f.db.SetRunArchived(ctx, "r1", &now); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Drop(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.rec.RunDir, "snapshots")); !os.IsNotExist(err) {
		t.Fatalf("the snapshot store is still there: %v", err)
	}
	_, err := f.svc.Changes(ctx, "r1", conv.SinceStart)
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), "archived") {
		t.Fatalf("changes of an archived run: %v; want a conflict saying the snapshots were dropped", err)
	}
}

// A folder outside git: a clear conflict, never an empty list; its files
// still open.
func TestChangesNeedGit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, false, map[string]string{"a.txt": "a\n"})
	f.svc.Started(ctx, f.rec)
	_, err := f.svc.Changes(ctx, "r1", conv.SinceStart)
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), "changes need a git repository") {
		t.Fatalf("changes of a plain folder: %v", err)
	}
	if _, err := f.svc.Diff(ctx, "r1", "a.txt", conv.SinceStart); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("diff in a plain folder: %v", err)
	}
	if v, err := f.svc.File(ctx, "r1", "a.txt"); err != nil || v.Text != "a\n" {
		t.Fatalf("file in a plain folder: %+v %v", v, err)
	}
	if _, err := f.svc.Changes(ctx, "nope", conv.SinceStart); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("unknown run: %v", err)
	}
	if _, err := f.svc.Changes(ctx, "r1", "yesterday"); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("since=yesterday: %v", err)
	}
}

// One file's diff in the permission prompt's shape; binary and large
// files said, unchanged files and paths out of the folder refused.
func TestDiffAndFile(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("0123456789abcdef\n", (maxDiffBytes/17)+10)
	f := newFixture(t, true, map[string]string{"a.txt": "one\ntwo\nthree\n", "big.txt": "small\n", "same.txt": "same\n", "pic.bin": "\x00a"})
	f.svc.Started(ctx, f.rec)
	writeFiles(t, f.repo, map[string]string{"a.txt": "one\n2\nthree\n", "big.txt": big, "pic.bin": "\x00b", "naïve café.txt": "é\n"})
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "secret\n"})
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(f.repo, "leak.txt"))

	d, err := f.svc.Diff(ctx, "r1", "a.txt", conv.SinceStart)
	if err != nil {
		t.Fatal(err)
	}
	want := "--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three"
	if d.Diff != want || d.Status != conv.FileModified || d.Binary || d.TooLarge {
		t.Fatalf("diff %+v; want\n%s", d, want)
	}
	if d, _ := f.svc.Diff(ctx, "r1", "naïve café.txt", conv.SinceStart); d.Status != conv.FileAdded || !strings.Contains(d.Diff, "+é") {
		t.Fatalf("diff of an added file with a non-ASCII name: %+v", d)
	}
	if d, _ := f.svc.Diff(ctx, "r1", "pic.bin", conv.SinceStart); !d.Binary || d.Diff != "" || !strings.Contains(d.Note, "binary") {
		t.Fatalf("binary diff %+v", d)
	}
	if d, _ := f.svc.Diff(ctx, "r1", "big.txt", conv.SinceStart); !d.TooLarge || d.Diff != "" || !strings.Contains(d.Note, "too large") || d.NewSize != int64(len(big)) {
		t.Fatalf("large diff %+v", d)
	}
	if _, err := f.svc.Diff(ctx, "r1", "same.txt", conv.SinceStart); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("diff of an unchanged file: %v", err)
	}
	for _, p := range []string{"../x", "/etc/passwd", "a/../../b", ""} {
		if _, err := f.svc.Diff(ctx, "r1", p, conv.SinceStart); conv.KindOf(err) != conv.EInvalid {
			t.Errorf("diff of %q: %v; want invalid", p, err)
		}
		if _, err := f.svc.File(ctx, "r1", p); conv.KindOf(err) != conv.EInvalid {
			t.Errorf("file %q: %v; want invalid", p, err)
		}
	}

	// The file now: text, cut at the cap with the flag, binary said,
	// a symbolic link out of the folder refused, a missing file 404.
	if v, err := f.svc.File(ctx, "r1", "a.txt"); err != nil || v.Text != "one\n2\nthree\n" || v.Truncated || v.Size != 12 {
		t.Fatalf("file a.txt: %+v %v", v, err)
	}
	v, err := f.svc.File(ctx, "r1", "big.txt")
	if err != nil || !v.Truncated || len(v.Text) != maxFileBytes || v.Size != int64(len(big)) {
		t.Fatalf("file big.txt: truncated %v, %d bytes of %d, %v", v.Truncated, len(v.Text), v.Size, err)
	}
	if v, _ := f.svc.File(ctx, "r1", "pic.bin"); !v.Binary || v.Text != "" {
		t.Fatalf("file pic.bin: %+v", v)
	}
	if _, err := f.svc.File(ctx, "r1", "leak.txt"); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("a symbolic link out of the folder: %v; want invalid", err)
	}
	if _, err := f.svc.File(ctx, "r1", "gone.txt"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("a missing file: %v", err)
	}
}

// A multi-byte character at the cap is not split.
func TestFileCutsAtRune(t *testing.T) {
	f := newFixture(t, false, map[string]string{"u.txt": strings.Repeat("a", maxFileBytes-1) + "é and more"})
	v, err := f.svc.File(context.Background(), "r1", "u.txt")
	if err != nil || !v.Truncated || len(v.Text) != maxFileBytes-1 {
		t.Fatalf("%d bytes, truncated %v, %v; want the cut before é", len(v.Text), v.Truncated, err)
	}
}

// When the folder is gone (a removed worktree), the changes compare with
// its last snapshot.
func TestChangesAfterFolderGone(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, true, map[string]string{"a.txt": "a\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, f.repo, "worktree", "add", "--quiet", "-b", "lab/x", wt)
	f.rec.ID, f.rec.Cwd = "r2", wt
	if err := f.db.CreateRun(ctx, f.rec); err != nil {
		t.Fatal(err)
	}
	f.svc.Started(ctx, f.rec)
	writeFiles(t, wt, map[string]string{"b.txt": "b\n"})
	if err := f.svc.Settle(ctx, f.rec); err != nil {
		t.Fatal(err)
	}
	f.waitSnapshots(2)
	gitIn(t, f.repo, "worktree", "remove", "--force", wt)
	c := f.changes(conv.SinceStart)
	if c.Current != "snapshot" || paths(c) != "added b.txt" {
		t.Fatalf("changes after the folder went: %+v", c)
	}
}
