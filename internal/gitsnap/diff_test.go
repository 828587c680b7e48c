package gitsnap

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The changes between two snapshots: a rename (with an edit), a deletion,
// a binary file, a file whose name has spaces and non-ASCII letters, a
// modified and an added file, each with its status and line counts; a
// submodule's folder is left alone (its files are not snapshotted, only
// its commit, and work inside it is no change of the run's folder).
func TestDiffKinds(t *testing.T) {
	long := strings.Repeat("line\n", 20)
	dir := newRepo(t, map[string]string{
		"old name.txt": long, "gone.txt": "bye\n", "pic.bin": "\x00\x01\x02", "edit.txt": "a\nb\nc\n",
		"naïve café.md": "x\n",
	})
	sub := newRepo(t, map[string]string{"inner.txt": "inner\n"})
	git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "--quiet", sub, "mod")
	git(t, dir, "commit", "--quiet", "-m", "submodule")
	r := open(t, dir)
	s := NewStore(filepath.Join(t.TempDir(), "snap"))
	before := snap(t, s, r)

	if err := os.Rename(filepath.Join(dir, "old name.txt"), filepath.Join(dir, "new name.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{
		"new name.txt":  long + "more\n",
		"pic.bin":       "\x00\x01\x03\x04",
		"edit.txt":      "a\nB\nc\nd\n",
		"naïve café.md": "x\ny\n",
		"added.txt":     "1\n2\n",
		"mod/inner.txt": "changed inside the submodule\n",
		"mod/extra.txt": "new inside the submodule\n",
	})
	os.Remove(filepath.Join(dir, "gone.txt"))
	gitBefore := gitState(t, filepath.Join(dir, "mod"))
	after := snap(t, s, r)
	sameState(t, gitBefore, gitState(t, filepath.Join(dir, "mod")))

	cs, err := s.Diff(context.Background(), before, after)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Change{}
	for _, c := range cs {
		got[c.Path] = c
	}
	for _, w := range []Change{
		{Path: "added.txt", Status: Added, Added: 2},
		{Path: "edit.txt", Status: Modified, Added: 2, Removed: 1},
		{Path: "gone.txt", Status: Deleted, Removed: 1},
		{Path: "naïve café.md", Status: Modified, Added: 1},
		{Path: "new name.txt", OldPath: "old name.txt", Status: Renamed, Added: 1},
		{Path: "pic.bin", Status: Modified, Binary: true},
	} {
		c, ok := got[w.Path]
		if !ok {
			t.Errorf("no change for %q in %+v", w.Path, cs)
			continue
		}
		if c.Status != w.Status || c.OldPath != w.OldPath || c.Binary != w.Binary || c.Added != w.Added || c.Removed != w.Removed {
			t.Errorf("%s: got %+v; want %+v", w.Path, c, w)
		}
	}
	if len(cs) != 6 {
		t.Errorf("%d changes %+v; want 6 (nothing for the submodule)", len(cs), cs)
	}
	if files := treeFiles(t, s, after); !strings.HasPrefix(files["mod"], "commit ") || files["mod/inner.txt"] != "" {
		t.Errorf("the submodule is snapshotted as %q; want only its commit", files["mod"])
	}

	// Find names the change to one path, the rename with its source.
	c, ok, err := s.Find(context.Background(), before, after, "new name.txt")
	if err != nil || !ok || c.OldPath != "old name.txt" || c.Status != Renamed || c.OldID == "" || c.NewID == "" {
		t.Fatalf("Find: %+v %v %v; want the rename with both ids", c, ok, err)
	}
	if _, ok, _ := s.Find(context.Background(), before, after, "nope.txt"); ok {
		t.Error("Find found a change to a file that has none")
	}
	b, err := s.Blob(context.Background(), c.NewID)
	if err != nil || string(b) != long+"more\n" {
		t.Fatalf("Blob: %q %v", b, err)
	}
}

// A symbolic link is snapshotted as a link (its target text), never
// followed: a link pointing out of the folder takes nothing from there.
func TestSnapshotSymlinkNotFollowed(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "secret\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	s := NewStore(filepath.Join(t.TempDir(), "snap"))
	files := treeFiles(t, s, snap(t, s, open(t, dir)))
	if files["out"] != outside || files["out/secret.txt"] != "" {
		t.Fatalf("snapshot %v; want the link as its target only", files)
	}
}
