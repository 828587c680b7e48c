package gitsnap

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A worktree on a new branch: its own files, a commit of everything on
// its branch, removal refused while it has uncommitted changes unless
// forced, and the branch kept after removal.
func TestWorktreeLifecycle(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	head, err := HeadOf(ctx, dir)
	if err != nil || head.Branch != "main" || len(head.Commit) != 40 {
		t.Fatalf("HeadOf: %+v %v; want main and a commit", head, err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	if err := AddWorktree(ctx, dir, wt, "lab/try", head.Commit); err != nil {
		t.Fatal(err)
	}
	if ok, err := BranchExists(ctx, dir, "lab/try"); err != nil || !ok {
		t.Fatalf("BranchExists: %v %v", ok, err)
	}
	if ok, _ := BranchExists(ctx, dir, "lab/none"); ok {
		t.Fatal("BranchExists says yes to a branch that is not there")
	}
	if d, err := Dirty(ctx, wt); err != nil || len(d) != 0 {
		t.Fatalf("a fresh worktree is dirty: %v %v", d, err)
	}
	if _, err := CommitAll(ctx, wt, "nothing"); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("CommitAll of a clean tree: %v; want ErrNothingToCommit", err)
	}
	write(t, wt, map[string]string{"a.txt": "changed\n", "new file.txt": "new\n"})
	if d, _ := Dirty(ctx, wt); len(d) != 2 {
		t.Fatalf("dirty %q; want two files", d)
	}
	// The operator's own tree is untouched by the worktree's work.
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a\n" {
		t.Fatalf("the main tree's a.txt is %q", b)
	}
	commit, err := CommitAll(ctx, wt, "Add a file\n\nfrom the run")
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "lab/try"); got != commit {
		t.Fatalf("branch at %s; want the commit %s", got, commit)
	}
	if msg := git(t, dir, "log", "-1", "--format=%B", "lab/try"); !strings.HasPrefix(msg, "Add a file") {
		t.Fatalf("commit message %q", msg)
	}
	if main := git(t, dir, "rev-parse", "main"); main != head.Commit {
		t.Fatalf("main moved to %s", main)
	}

	write(t, wt, map[string]string{"scratch.txt": "uncommitted\n"})
	if err := RemoveWorktree(ctx, dir, wt, false); err == nil {
		t.Fatal("RemoveWorktree removed a worktree with uncommitted changes")
	}
	if err := RemoveWorktree(ctx, dir, wt, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if ok, _ := BranchExists(ctx, dir, "lab/try"); !ok {
		t.Fatal("removing the worktree deleted its branch")
	}
}

// A commit in a repository without any author configured is signed by lab.
func TestCommitAllWithoutIdentity(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	t.Setenv("EMAIL", "")
	write(t, dir, map[string]string{"b.txt": "b\n"})
	if _, err := CommitAll(ctx, dir, "b"); err != nil {
		t.Fatal(err)
	}
}

func TestHeadOfEmptyRepository(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	git(t, dir, "init", "--quiet")
	h, err := HeadOf(context.Background(), dir)
	if err != nil || h.Commit != "" {
		t.Fatalf("HeadOf an empty repository: %+v %v; want no commit", h, err)
	}
}
