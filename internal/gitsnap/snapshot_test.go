package gitsnap

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A snapshot of a repository with staged, unstaged, untracked and ignored
// files, a stash and a second branch records the working tree as it is
// and leaves the operator's git state byte for byte as it was: status,
// index, stash, every ref and reflog, and no object added to their store.
func TestSnapshotLeavesGitStateAlone(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"tracked.txt": "one\n", "staged.txt": "s1\n", "both.txt": "b1\n", ".gitignore": "*.log\nbuild/\n",
		"stashed.txt": "x\n",
	})
	git(t, dir, "branch", "other")
	git(t, dir, "tag", "v1")
	write(t, dir, map[string]string{"stashed.txt": "y\n"})
	git(t, dir, "stash", "push", "--quiet")
	write(t, dir, map[string]string{
		"tracked.txt":  "one\ntwo\n",    // unstaged
		"staged.txt":   "s2\n",          // staged
		"both.txt":     "b2\n",          // staged, then changed again
		"new.txt":      "untracked\n",   // untracked
		"debug.log":    "ignored\n",     // ignored
		"build/out":    "ignored too\n", // ignored folder
		"deep/a/b.txt": "nested untracked\n",
	})
	git(t, dir, "add", "staged.txt", "both.txt")
	write(t, dir, map[string]string{"both.txt": "b3\n"})
	// A large-file filter that stores content under .git (as Git LFS
	// does), for files added after the seed: the snapshot must not run it.
	git(t, dir, "config", "filter.lfs.clean", "sh -c 'cat > .git/lfs-stored; echo pointer'")
	git(t, dir, "config", "filter.lfs.required", "true")
	write(t, dir, map[string]string{".gitattributes": "*.big filter=lfs\n", "asset.big": "large content\n"})
	before := gitState(t, dir)

	s := NewStore(filepath.Join(t.TempDir(), "snap"))
	r := open(t, dir)
	tree := snap(t, s, r)
	sameState(t, before, gitState(t, dir))

	got := treeFiles(t, s, tree)
	want := map[string]string{
		".gitignore": "*.log\nbuild/\n", "tracked.txt": "one\ntwo\n", "staged.txt": "s2\n", "both.txt": "b3\n",
		"new.txt": "untracked\n", "deep/a/b.txt": "nested untracked\n", "stashed.txt": "x\n",
		".gitattributes": "*.big filter=lfs\n", "asset.big": "large content\n",
	}
	if len(got) != len(want) {
		t.Errorf("snapshot holds %v; want %v", got, want)
	}
	for p, c := range want {
		if got[p] != c {
			t.Errorf("snapshot %s = %q; want %q", p, got[p], c)
		}
	}

	// A second snapshot after more work: its own tree, the state still
	// untouched, and the first tree still readable.
	write(t, dir, map[string]string{"new.txt": "changed\n"})
	os.Remove(filepath.Join(dir, "tracked.txt"))
	before = gitState(t, dir)
	tree2 := snap(t, s, r)
	sameState(t, before, gitState(t, dir))
	if tree2 == tree {
		t.Fatal("the second snapshot has the first one's tree")
	}
	if g := treeFiles(t, s, tree2); g["new.txt"] != "changed\n" || g["tracked.txt"] != "" {
		t.Errorf("second snapshot %v; want new.txt changed and tracked.txt gone", g)
	}
	if g := treeFiles(t, s, tree); g["new.txt"] != "untracked\n" {
		t.Errorf("first snapshot now reads %v", g)
	}

	// The same folder unchanged: the same tree.
	if again := snap(t, s, r); again != tree2 {
		t.Errorf("an unchanged folder gave tree %s, then %s", tree2, again)
	}
}

// A snapshot of a subfolder holds only that folder, paths relative to it;
// a new Store on the same folder (lab restarted) reads the old trees.
func TestSnapshotSubfolder(t *testing.T) {
	dir := newRepo(t, map[string]string{"top.txt": "t\n", "sub/a.txt": "a\n"})
	r := open(t, filepath.Join(dir, "sub"))
	if r.Prefix != "sub/" {
		t.Fatalf("prefix %q; want sub/", r.Prefix)
	}
	storeDir := filepath.Join(t.TempDir(), "snap")
	s := NewStore(storeDir)
	t1 := snap(t, s, r)
	write(t, dir, map[string]string{"top.txt": "changed\n", "sub/b.txt": "b\n"})
	t2 := snap(t, s, r)
	if got := treeFiles(t, s, t2); len(got) != 2 || got["a.txt"] != "a\n" || got["b.txt"] != "b\n" {
		t.Fatalf("subfolder snapshot %v; want a.txt and b.txt only", got)
	}
	cs, err := NewStore(storeDir).Diff(context.Background(), t1, t2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Path != "b.txt" || cs[0].Status != Added {
		t.Fatalf("changes %+v; want b.txt added", cs)
	}

	// An empty subfolder (nothing tracked or addable): the empty tree.
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := snap(t, NewStore(filepath.Join(t.TempDir(), "e")), open(t, filepath.Join(dir, "empty")))
	if e != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("empty folder tree %s; want git's empty tree", e)
	}
}

// A repository that has no commit and no index yet still snapshots.
func TestSnapshotFreshRepository(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	git(t, dir, "init", "--quiet")
	write(t, dir, map[string]string{"a.txt": "a\n"})
	s := NewStore(filepath.Join(t.TempDir(), "snap"))
	tree := snap(t, s, open(t, dir))
	if got := treeFiles(t, s, tree); got["a.txt"] != "a\n" {
		t.Fatalf("snapshot %v; want a.txt", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "index")); err == nil {
		t.Error("the snapshot created the repository's index")
	}
}

// Not a repository: ErrNotRepo.
func TestOpenNotRepo(t *testing.T) {
	isolate(t)
	if _, err := Open(context.Background(), t.TempDir()); !isNotRepo(err) {
		t.Fatalf("Open of a plain folder: %v; want ErrNotRepo", err)
	}
}

func isNotRepo(err error) bool { return err != nil && errorsIs(err, ErrNotRepo) }
