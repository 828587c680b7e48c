package gitsnap

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Repo is the git working tree a folder is in.
type Repo struct {
	Top string // the working tree's top folder, absolute, symlinks resolved
	// Prefix is the folder below Top, slash-separated with a trailing
	// slash ("" when the folder is Top).
	Prefix  string
	GitDir  string // this working tree's git folder (where its index is)
	Objects string // the repository's object store, shared by its worktrees
	Format  string // the object format: sha1 or sha256
}

// Open finds the git working tree dir is in. Returns ErrNotRepo (wrapped)
// when there is none (a bare repository or a .git folder counts as none).
func Open(ctx context.Context, dir string) (Repo, error) {
	out, err := gitCmd{dir: dir}.run(ctx, "rev-parse", "--path-format=absolute",
		"--is-inside-work-tree", "--show-object-format", "--show-toplevel", "--git-dir", "--git-common-dir", "--show-prefix")
	if err != nil {
		if notRepo(err) {
			return Repo{}, fmt.Errorf("%s: %w", dir, ErrNotRepo)
		}
		return Repo{}, err
	}
	ls := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(ls) < 5 || ls[0] != "true" {
		return Repo{}, fmt.Errorf("%s: %w", dir, ErrNotRepo)
	}
	r := Repo{Format: ls[1], Top: ls[2], GitDir: ls[3], Objects: filepath.Join(ls[4], "objects")}
	if len(ls) > 5 {
		r.Prefix = ls[5]
	}
	return r, nil
}

// notRepo reports whether git failed because there is no working tree.
func notRepo(err error) bool {
	s := stderrOf(err)
	return strings.Contains(s, "not a git repository") || strings.Contains(s, "must be run in a work tree")
}

// pathspec is the run's folder as a literal pathspec from Top.
func (r Repo) pathspec() string {
	if r.Prefix == "" {
		return "."
	}
	return strings.TrimSuffix(r.Prefix, "/")
}
