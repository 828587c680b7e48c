package gitsnap

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Head is where a working tree's HEAD points.
type Head struct {
	Commit string // full id, "" in a repository without commits
	Branch string // the branch's short name, "" when detached
}

// HeadOf reads repo's HEAD.
func HeadOf(ctx context.Context, dir string) (Head, error) {
	g := gitCmd{dir: dir}
	out, err := g.run(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		if stderrOf(err) == "" {
			return Head{}, nil // no commit yet
		}
		return Head{}, err
	}
	h := Head{Commit: strings.TrimSpace(string(out))}
	if b, err := g.run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		h.Branch = strings.TrimSpace(string(b))
	}
	return h, nil
}

// BranchExists reports whether refs/heads/name exists in the repository
// dir is in.
func BranchExists(ctx context.Context, dir, name string) (bool, error) {
	_, err := gitCmd{dir: dir}.run(ctx, "show-ref", "--verify", "--quiet", "refs/heads/"+name)
	if err == nil {
		return true, nil
	}
	var ge *Error
	if errors.As(err, &ge) && ge.Stderr == "" {
		return false, nil
	}
	return false, err
}

// ValidBranch reports whether git accepts name as a branch name.
func ValidBranch(ctx context.Context, dir, name string) bool {
	_, err := gitCmd{dir: dir}.run(ctx, "check-ref-format", "--branch", name)
	return err == nil
}

// AddWorktree adds a working tree at path on a new branch made from
// commit, in the repository dir is in. The repository gains the branch
// and a worktree entry (that is the point); nothing else changes.
func AddWorktree(ctx context.Context, dir, path, branch, commit string) error {
	_, err := gitCmd{dir: dir}.run(ctx, "worktree", "add", "--quiet", "-b", branch, path, commit)
	return err
}

// Dirty lists what `git status` would show in the working tree at dir:
// changed, staged and untracked files (ignored ones are not), as
// porcelain lines.
func Dirty(ctx context.Context, dir string) ([]string, error) {
	out, err := gitCmd{dir: dir}.run(ctx, "status", "--porcelain", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var files []string
	f := lines(out, 0)
	for i := 0; i < len(f); i++ {
		files = append(files, f[i])
		if len(f[i]) > 1 && (f[i][0] == 'R' || f[i][0] == 'C') {
			i++ // a rename's source follows
		}
	}
	return files, nil
}

// ErrNothingToCommit is returned by CommitAll for a clean working tree.
var ErrNothingToCommit = errors.New("nothing to commit: the working tree has no changes")

// CommitAll commits every change in the working tree at dir (tracked and
// untracked files, .gitignore respected) on its branch with message, and
// returns the new commit's id. Without an author in git's config, lab
// signs as "lab".
func CommitAll(ctx context.Context, dir, message string) (string, error) {
	g := gitCmd{dir: dir}
	if _, err := g.run(ctx, "add", "--all"); err != nil {
		return "", err
	}
	if _, err := g.run(ctx, "diff", "--cached", "--quiet"); err == nil {
		return "", ErrNothingToCommit
	}
	args := []string{"commit", "--quiet", "--no-verify", "--file=-"}
	if !hasIdentity(ctx, g) {
		args = append([]string{"-c", "user.name=lab", "-c", "user.email=lab@localhost"}, args...)
	}
	g.stdin = strings.NewReader(message)
	if _, err := g.run(ctx, args...); err != nil {
		return "", err
	}
	g.stdin = nil
	out, err := g.run(ctx, "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// hasIdentity reports whether git knows who commits.
func hasIdentity(ctx context.Context, g gitCmd) bool {
	_, err := g.run(ctx, "var", "GIT_COMMITTER_IDENT")
	return err == nil
}

// RemoveWorktree removes the working tree at path from the repository
// dir is in (its branch stays). force removes it with uncommitted
// changes, which are lost.
func RemoveWorktree(ctx context.Context, dir, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, err := (gitCmd{dir: dir}).run(ctx, append(args, path)...); err != nil {
		return fmt.Errorf("remove the worktree: %w", err)
	}
	return nil
}

// DeleteBranch deletes a branch that holds nothing beyond its start (for
// a worktree whose run never started).
func DeleteBranch(ctx context.Context, dir, branch string) error {
	_, err := gitCmd{dir: dir}.run(ctx, "branch", "--quiet", "-D", branch)
	return err
}
