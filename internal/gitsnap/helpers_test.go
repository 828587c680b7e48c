package gitsnap

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// git runs git in dir for a test, with a fixed identity and no user or
// system config, and returns its trimmed output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(baseEnv(), testGitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

var testGitEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
	"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
}

// isolate points the git lab runs at no user or system config, for the
// whole test.
func isolate(t testing.TB) {
	t.Setenv("HOME", t.TempDir())
}

// newRepo makes a repository with one commit holding files.
func newRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	git(t, dir, "init", "--quiet", "--initial-branch=main")
	write(t, dir, files)
	git(t, dir, "add", "--all")
	git(t, dir, "commit", "--quiet", "-m", "start")
	return dir
}

// write writes files (path → content) under dir.
func write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// open opens the repository dir is in.
func open(t testing.TB, dir string) Repo {
	t.Helper()
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// snap takes a snapshot into s.
func snap(t testing.TB, s *Store, r Repo) string {
	t.Helper()
	tree, err := s.Snapshot(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// treeFiles lists a tree's files with their content, read from the store.
func treeFiles(t testing.TB, s *Store, tree string) map[string]string {
	t.Helper()
	out, err := s.reader().run(context.Background(), "ls-tree", "-r", "-z", tree)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, rec := range lines(out, 0) {
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if f[1] != "blob" {
			files[path] = f[1] + " " + f[2]
			continue
		}
		b, err := s.Blob(context.Background(), f[2])
		if err != nil {
			t.Fatal(err)
		}
		files[path] = string(b)
	}
	return files
}

// gitState is everything of a repository's git state a snapshot must
// leave alone, as text to compare.
func gitState(t testing.TB, dir string) map[string]string {
	t.Helper()
	gitDir := git(t, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	st := map[string]string{
		"status":   git(t, dir, "--no-optional-locks", "status", "--porcelain=v1", "--untracked-files=all", "--ignored"),
		"stash":    git(t, dir, "stash", "list"),
		"refs":     git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"),
		"HEAD":     git(t, dir, "rev-parse", "HEAD"),
		"symbolic": git(t, dir, "symbolic-ref", "HEAD"),
	}
	// Every file under the git folder by content: the index's bytes,
	// reflogs, refs, config, and no object added. Only mtimes may change
	// (git refreshes an object it reuses).
	var names []string
	filepath.WalkDir(gitDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(gitDir, p)
		names = append(names, rel+" "+hex.EncodeToString(sum[:8]))
		return nil
	})
	sort.Strings(names)
	st["files"] = strings.Join(names, "\n")
	return st
}

// sameState fails the test where after differs from before.
func sameState(t testing.TB, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed:\nbefore:\n%s\nafter:\n%s", k, v, after[k])
		}
	}
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }
