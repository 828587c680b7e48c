package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"lab/internal/conv"
	"lab/internal/gitsnap"
	"lab/internal/store"
)

// A run that asks for a worktree (conv.StartRequest.Worktree) works in a
// new git worktree of its folder's repository, on a new branch from the
// current HEAD, at <state dir>/worktrees/<run id>: outside the
// repository, so it adds no untracked folder there, and several runs on
// one repository never write into each other's files. The repository
// gains the branch and a worktree entry; merging is the operator's.

// newWorktree makes the worktree for run id and returns it with the
// folder the run starts in (the same place below the worktree's top as
// cwd is below the repository's). Returns EInvalid outside a git
// repository, EConflict in one without a commit to branch from.
func (s *Service) newWorktree(ctx context.Context, id, cwd, title string) (store.Worktree, string, error) {
	repo, err := gitsnap.Open(ctx, cwd)
	if errors.Is(err, gitsnap.ErrNotRepo) {
		return store.Worktree{}, "", conv.Errorf(conv.EInvalid, "a worktree needs a git repository: %s is not in one", cwd)
	}
	if err != nil {
		return store.Worktree{}, "", conv.Wrap(conv.EUnavailable, err, "git cannot read "+cwd)
	}
	head, err := gitsnap.HeadOf(ctx, repo.Top)
	if err != nil {
		return store.Worktree{}, "", conv.Wrap(conv.EUnavailable, err, "git cannot read the repository's HEAD")
	}
	if head.Commit == "" {
		return store.Worktree{}, "", conv.Errorf(conv.EConflict, "the repository at %s has no commit yet to branch a worktree from", repo.Top)
	}
	branch, err := s.branchFor(ctx, repo.Top, title, id)
	if err != nil {
		return store.Worktree{}, "", err
	}
	path := filepath.Join(s.cfg.StateDir, "worktrees", id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return store.Worktree{}, "", conv.Wrap(conv.EInternal, err, "create the worktrees folder")
	}
	if err := gitsnap.AddWorktree(ctx, repo.Top, path, branch, head.Commit); err != nil {
		return store.Worktree{}, "", conv.Wrap(conv.EUnavailable, err, "git could not add a worktree: "+err.Error())
	}
	dir := filepath.Join(path, filepath.FromSlash(repo.Prefix))
	// The folder may hold nothing committed yet: it is made in the
	// worktree so the run can start there.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.dropWorktree(repo.Top, path, branch)
		return store.Worktree{}, "", conv.Wrap(conv.EInternal, err, "create the run's folder in its worktree")
	}
	w := store.Worktree{RunID: id, Repo: repo.Top, Path: path, Branch: branch, Base: head.Commit, BaseRef: head.Branch}
	return w, dir, nil
}

// dropWorktree undoes newWorktree for a run that never started.
func (s *Service) dropWorktree(repo, path, branch string) {
	ctx := context.Background()
	if err := gitsnap.RemoveWorktree(ctx, repo, path, true); err != nil {
		s.log.Warn("remove the worktree of a run that did not start", "path", path, "err", err)
	}
	if err := gitsnap.DeleteBranch(ctx, repo, branch); err != nil {
		s.log.Warn("delete the branch of a run that did not start", "branch", branch, "err", err)
	}
}

// branchFor names a new run's branch: lab/<the title as a short slug>,
// with the run id added when that branch exists or git refuses the name.
func (s *Service) branchFor(ctx context.Context, repo, title, id string) (string, error) {
	for _, name := range []string{"lab/" + slug(title), "lab/" + slug(title) + "-" + id[:6], "lab/" + id} {
		if strings.HasSuffix(name, "/") || strings.Contains(name, "/-") || !gitsnap.ValidBranch(ctx, repo, name) {
			continue
		}
		exists, err := gitsnap.BranchExists(ctx, repo, name)
		if err != nil {
			return "", conv.Wrap(conv.EUnavailable, err, "git cannot list the repository's branches")
		}
		if !exists {
			return name, nil
		}
	}
	return "", conv.Errorf(conv.EConflict, "the branches lab/%s and lab/%s already exist", slug(title), id)
}

// slug is a short branch-name form of a title: lowercase letters and
// digits in dash-joined words, at most 32 bytes, "" when none are left.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	return strings.TrimRight(b.String()[:min(b.Len(), 32)], "-")
}

// worktreeFor finds the lab worktree cwd lies in (a resumed run works in
// its session's worktree again), so the new run is recorded with it.
func (s *Service) worktreeFor(ctx context.Context, cwd string) (store.Worktree, bool) {
	all, err := s.db.Worktrees(ctx)
	if err != nil {
		return store.Worktree{}, false
	}
	var best store.Worktree
	found := false
	for _, w := range all {
		if w.RemovedAt != nil || (cwd != w.Path && !strings.HasPrefix(cwd, w.Path+string(filepath.Separator))) {
			continue
		}
		// Every run in one worktree (the first and its resumes) holds
		// the same record.
		best, found = w, true
	}
	return best, found
}

// worktreeView is the API's form of a worktree.
func worktreeView(w store.Worktree) *conv.Worktree {
	return &conv.Worktree{
		Path: w.Path, Branch: w.Branch, Base: w.Base, BaseRef: w.BaseRef, Repo: w.Repo, Removed: w.RemovedAt,
		Merge: "git -C " + shellQuote(w.Repo) + " merge " + shellQuote(w.Branch),
	}
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dressWorktrees sets the worktree of each run that has one.
func (s *Service) dressWorktrees(ctx context.Context, runs []conv.Run) {
	all, err := s.db.Worktrees(ctx)
	if err != nil || len(all) == 0 {
		return
	}
	for i := range runs {
		if w, ok := all[runs[i].ID]; ok {
			runs[i].Worktree = worktreeView(w)
		}
	}
}

// CommitWorktree commits every change in an ended worktree run's
// worktree on its branch, with message (default: the run's title).
// Returns ENotFound, EConflict while the run is live, when it has no
// worktree (or it was removed) or nothing to commit.
func (s *Service) CommitWorktree(ctx context.Context, id, message string) (conv.CommitResult, error) {
	rec, w, err := s.endedWorktree(ctx, id)
	if err != nil {
		return conv.CommitResult{}, err
	}
	if strings.TrimSpace(message) == "" {
		message = rec.Title
	}
	commit, err := gitsnap.CommitAll(ctx, w.Path, message)
	if errors.Is(err, gitsnap.ErrNothingToCommit) {
		return conv.CommitResult{}, conv.Errorf(conv.EConflict, "nothing to commit: the worktree has no changes")
	}
	if err != nil {
		return conv.CommitResult{}, conv.Wrap(conv.EConflict, err, "git could not commit: "+err.Error())
	}
	s.log.Info("worktree committed", "run", id, "branch", w.Branch, "commit", commit)
	s.changed(id)
	return conv.CommitResult{Commit: commit, Branch: w.Branch}, nil
}

// RemoveWorktree removes an ended worktree run's worktree; its branch
// stays. Uncommitted changes make it a conflict (their files named)
// unless force, which loses them. before, when set, is called first
// (the changes layer records the folder one last time). Returns
// ENotFound, EConflict.
func (s *Service) RemoveWorktree(ctx context.Context, id string, force bool, before func(store.RunRecord)) error {
	rec, w, err := s.endedWorktree(ctx, id)
	if err != nil {
		return err
	}
	if ids := s.liveIn(ctx, w.Path); len(ids) > 0 {
		return conv.Errorf(conv.EConflict, "run %s works in this worktree now: stop it first", ids[0])
	}
	if !force {
		dirty, err := gitsnap.Dirty(ctx, w.Path)
		if err != nil {
			return conv.Wrap(conv.EConflict, err, "git cannot read the worktree's status")
		}
		if len(dirty) > 0 {
			return conv.Errorf(conv.EConflict, "the worktree has uncommitted changes (%s): commit them, or remove it anyway to lose them", listFew(dirty))
		}
	}
	if before != nil {
		before(rec)
	}
	if err := gitsnap.RemoveWorktree(ctx, w.Repo, w.Path, force); err != nil {
		return conv.Wrap(conv.EConflict, err, err.Error())
	}
	if err := s.db.MarkWorktreeRemoved(ctx, w.Path, s.cfg.Now()); err != nil {
		return err
	}
	s.log.Info("worktree removed", "run", id, "path", w.Path, "branch", w.Branch, "forced", force)
	s.changed(id)
	return nil
}

// endedWorktree is an ended run's record with its worktree, still there.
func (s *Service) endedWorktree(ctx context.Context, id string) (store.RunRecord, store.Worktree, error) {
	rec, err := s.db.GetRun(ctx, id)
	if err != nil {
		return rec, store.Worktree{}, err
	}
	w, ok, err := s.db.RunWorktree(ctx, id)
	switch {
	case err != nil:
		return rec, w, err
	case !ok:
		return rec, w, conv.Errorf(conv.EConflict, "run %s does not work in a worktree of its own", id)
	case w.RemovedAt != nil:
		return rec, w, conv.Errorf(conv.EConflict, "the worktree of run %s was removed already (its branch %s stays)", id, w.Branch)
	case rec.Live():
		return rec, w, conv.Errorf(conv.EConflict, "run %s is still running: stop it first", id)
	}
	return rec, w, nil
}

// liveIn lists the live runs working in the worktree at path.
func (s *Service) liveIn(ctx context.Context, path string) []string {
	live, err := s.db.ListRuns(ctx, true)
	if err != nil {
		return nil
	}
	var ids []string
	for _, r := range live {
		if r.Cwd == path || strings.HasPrefix(r.Cwd, path+string(filepath.Separator)) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// listFew names up to five porcelain entries.
func listFew(entries []string) string {
	var names []string
	for i, e := range entries {
		if i == 5 {
			names = append(names, "…")
			break
		}
		names = append(names, strings.TrimSpace(e[min(len(e), 3):]))
	}
	return strings.Join(names, ", ")
}
