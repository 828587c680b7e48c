package runs

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

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// waitFile polls until path exists.
func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A run that asks for a worktree starts in a new worktree of its
// folder's repository (in the state dir, on branch lab/<title>), the
// snapshot hook runs before its CLI does, the run shows the worktree, a
// second run in that folder is recorded with it, and once ended the
// worktree's changes are committed on the branch and the worktree
// removed (refused while dirty), the branch staying.
func TestWorktreeRun(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "")
	repo := filepath.Join(f.work, "repo")
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	os.WriteFile(filepath.Join(repo, "sub", "a.txt"), []byte("a\n"), 0o644)
	gitT(t, repo, "init", "--quiet", "--initial-branch=main")
	gitT(t, repo, "add", "--all")
	gitT(t, repo, "commit", "--quiet", "-m", "start")
	head := gitT(t, repo, "rev-parse", "HEAD")

	var spawnedEarly []string
	f.cfg.BeforeSpawn = func(ctx context.Context, rec store.RunRecord) {
		// The CLI (the stub writes .stub-argv as it starts) must not run yet.
		if _, err := os.Stat(filepath.Join(rec.Cwd, ".stub-argv")); err == nil {
			spawnedEarly = append(spawnedEarly, rec.ID)
		}
	}
	f.restart()
	run := f.start(conv.StartRequest{Cwd: filepath.Join(repo, "sub"), Prompt: "Fix the Greeting!", Worktree: true})
	w := run.Worktree
	wantPath := filepath.Join(f.cfg.StateDir, "worktrees", run.ID)
	if w == nil || w.Path != wantPath || w.Branch != "lab/fix-the-greeting" || w.Base != head || w.BaseRef != "main" || w.Repo != repo {
		t.Fatalf("worktree %+v; want %s on lab/fix-the-greeting from %s (main) of %s", w, wantPath, head, repo)
	}
	if run.Cwd != filepath.Join(wantPath, "sub") {
		t.Fatalf("cwd %s; want the same subfolder in the worktree", run.Cwd)
	}
	if !strings.Contains(w.Merge, "merge lab/fix-the-greeting") {
		t.Fatalf("merge command %q", w.Merge)
	}
	waitFile(t, filepath.Join(run.Cwd, ".stub-argv"))
	if len(spawnedEarly) > 0 {
		t.Fatalf("the CLI ran before the snapshot hook: %v", spawnedEarly)
	}
	if _, err := os.Stat(filepath.Join(repo, "sub", ".stub-argv")); err == nil {
		t.Fatal("the run wrote into the operator's own tree")
	}

	// A second run with the same title on the same repository gets its
	// own branch.
	other := f.start(conv.StartRequest{Cwd: repo, Prompt: "Fix the greeting", Worktree: true})
	if other.Worktree == nil || other.Worktree.Branch != "lab/fix-the-greeting-"+other.ID[:6] {
		t.Fatalf("second worktree %+v; want the branch with the run id", other.Worktree)
	}

	// Live: commit and removal are refused.
	if _, err := f.svc.CommitWorktree(ctx, run.ID, ""); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("commit of a live run: %v", err)
	}
	if _, err := f.svc.Stop(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	// A run started in the worktree folder (a resume) works with it.
	again := f.start(conv.StartRequest{Cwd: run.Cwd})
	if again.Worktree == nil || again.Worktree.Branch != w.Branch {
		t.Fatalf("a run in the worktree folder: %+v; want the worktree", again.Worktree)
	}
	if err := f.svc.RemoveWorktree(ctx, run.ID, true, nil); conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), again.ID) {
		t.Fatalf("removal while another run works there: %v", err)
	}
	if _, err := f.svc.Stop(ctx, again.ID); err != nil {
		t.Fatal(err)
	}

	// Dirty (the stub's files): removal refused, naming them.
	err := f.svc.RemoveWorktree(ctx, run.ID, false, nil)
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), ".stub-argv") {
		t.Fatalf("removal of a dirty worktree: %v", err)
	}
	res, err := f.svc.CommitWorktree(ctx, run.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Branch != w.Branch || gitT(t, repo, "rev-parse", w.Branch) != res.Commit {
		t.Fatalf("commit %+v; want it on %s", res, w.Branch)
	}
	if msg := gitT(t, repo, "log", "-1", "--format=%s", w.Branch); msg != "Fix the Greeting!" {
		t.Fatalf("commit message %q; want the run's title", msg)
	}
	if _, err := f.svc.CommitWorktree(ctx, run.ID, "again"); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("a second commit with nothing to commit: %v", err)
	}
	var settled string
	if err := f.svc.RemoveWorktree(ctx, run.ID, false, func(rec store.RunRecord) { settled = rec.ID }); err != nil {
		t.Fatal(err)
	}
	if settled != run.ID {
		t.Fatal("the hook before removal did not run")
	}
	if _, err := os.Stat(wantPath); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if gitT(t, repo, "rev-parse", w.Branch) != res.Commit || gitT(t, repo, "rev-parse", "main") != head {
		t.Fatal("the branches moved")
	}
	got, _ := f.svc.Get(ctx, run.ID)
	if got.Worktree == nil || got.Worktree.Removed == nil {
		t.Fatalf("the run's worktree %+v; want it marked removed", got.Worktree)
	}
	if err := f.svc.RemoveWorktree(ctx, run.ID, false, nil); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("removing twice: %v", err)
	}
}

// A worktree needs a git repository with a commit; the refusal leaves
// nothing behind.
func TestWorktreeRefused(t *testing.T) {
	f := newFixture(t, "")
	_, err := f.svc.Start(context.Background(), conv.StartRequest{Cwd: f.work, Worktree: true})
	if conv.KindOf(err) != conv.EInvalid || !strings.Contains(conv.MessageOf(err), "needs a git repository") {
		t.Fatalf("worktree outside git: %v", err)
	}
	gitT(t, f.work, "init", "--quiet")
	_, err = f.svc.Start(context.Background(), conv.StartRequest{Cwd: f.work, Worktree: true})
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), "no commit") {
		t.Fatalf("worktree in a repository without commits: %v", err)
	}
	if runs, _ := f.svc.List(context.Background()); len(runs) != 0 {
		t.Fatalf("a refused start left runs %+v", runs)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Fix the Greeting!":   "fix-the-greeting",
		"  lab:write a file ": "lab-write-a-file",
		"Ünïcödé only":        "n-c-d-only",
		"":                    "",
		"a very long title that goes on and on past the limit": "a-very-long-title-that-goes-on-a",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q; want %q", in, got, want)
		}
	}
}
