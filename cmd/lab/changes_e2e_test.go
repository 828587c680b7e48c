package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
)

// The changes view end to end, for each provider through lab's real
// server wiring: a run writes a file in its first turn and edits another
// in its second; "since turn" shows only the second turn's file, "since
// start" both. A worktree run on the same repository at the same time
// sees only its own change; once ended its change is committed on its
// branch and the worktree removed.

// changesScript is what a provider's scripted model does in each step.
type changesScript struct {
	provider string
	mode     string // permission mode that writes without asking
	write    string // prompt: add lab-write.txt
	edit     string // prompt: change "hello" in lab-edit.txt
	done     string // how the model's answer after a tool begins
}

func TestServeChangesClaude(t *testing.T) {
	testServeChanges(t, startLab(t), changesScript{provider: "claude", mode: "acceptEdits", write: "lab:write a file", edit: "lab:edit the file", done: "tool_result for"})
}

func TestServeChangesCodex(t *testing.T) {
	testServeChanges(t, startCodexLab(t), changesScript{provider: "codex", write: "lab:write a file", edit: "lab:change the file", done: "tool output for"})
}

// gitRepo makes a repository with lab-edit.txt holding "hello" committed.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := claudetest.ShortTempDir(t, "repo")
	if err := os.WriteFile(filepath.Join(dir, fakeclaudeapi.EditFile), []byte(fakeclaudeapi.EditBefore+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, dir, "init", "--quiet", "--initial-branch=main")
	gitCmd(t, dir, "add", "--all")
	gitCmd(t, dir, "commit", "--quiet", "-m", "start")
	return dir
}

func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// changes asks for a run's changes and wants 200.
func (l *labServer) changes(runID string, since conv.Since) conv.Changes {
	l.t.Helper()
	var c conv.Changes
	if code := l.call("GET", "/api/v1/runs/"+runID+"/changes?since="+string(since), nil, &c); code != 200 {
		l.t.Fatalf("changes of %s since %s: status %d", runID, since, code)
	}
	return c
}

// changedFiles is "status path" of each changed file, in order.
func changedFiles(c conv.Changes) string {
	var out []string
	for _, f := range c.Files {
		out = append(out, string(f.Status)+" "+f.Path)
	}
	return strings.Join(out, ", ")
}

// waitTurnDone waits until the run's turn ended with an answer after its
// tool ran (the scripted models echo the tool's output after done).
func (l *labServer) waitTurnDone(runID, what, done string) {
	l.t.Helper()
	var last conv.Page
	defer func() {
		if l.t.Failed() {
			l.t.Logf("last page of %s: state %s, %+v", runID, last.State, last.Messages)
		}
	}()
	l.waitPage(runID, what, func(p conv.Page) bool {
		last = p
		return p.State == conv.StateNeedsInput && strings.Contains(lastAssistant(p), done)
	})
}

// waitSnapshots waits until lab recorded n snapshots of the run's folder
// (the start and one per ended turn), read from lab's database.
func (l *labServer) waitSnapshots(runID string, n int) {
	l.t.Helper()
	db, err := OpenStore(context.Background(), l.state)
	if err != nil {
		l.t.Fatal(err)
	}
	defer db.Close()
	claudetest.Poll(l.t, 30*time.Second, "the run's snapshots", func() bool {
		snaps, err := db.Snapshots(context.Background(), runID)
		return err == nil && len(snaps) >= n
	})
}

func testServeChanges(t *testing.T, lab *labServer, s changesScript) {
	repo := gitRepo(t)
	start := func(prompt string, worktree bool) conv.Run {
		t.Helper()
		var run conv.Run
		req := conv.StartRequest{Provider: s.provider, Cwd: repo, Prompt: prompt, PermissionMode: s.mode, Worktree: worktree}
		if code := lab.call("POST", "/api/v1/runs", req, &run); code != 201 {
			t.Fatalf("start %q: status %d\n%s", prompt, code, lab.log)
		}
		return run
	}
	plain := start(s.write, false)
	wt := start(s.edit, true)
	if wt.Worktree == nil || !strings.HasPrefix(wt.Worktree.Branch, "lab/") || wt.Worktree.Repo != repo ||
		!strings.HasPrefix(wt.Cwd, filepath.Join(lab.state, "worktrees")) {
		t.Fatalf("worktree run %+v; want its own worktree in the state dir", wt)
	}

	// Turn 1 of the plain run wrote lab-write.txt; the worktree run
	// changed its own copy of lab-edit.txt. Each sees only its own.
	lab.waitTurnDone(plain.ID, "the plain run's first turn", s.done)
	lab.waitTurnDone(wt.ID, "the worktree run's turn", s.done)
	if b, _ := os.ReadFile(filepath.Join(repo, fakeclaudeapi.EditFile)); string(b) != "hello\n" {
		t.Fatalf("the worktree run wrote into the repository: lab-edit.txt is %q", b)
	}
	if got := changedFiles(lab.changes(plain.ID, conv.SinceStart)); got != "added lab-write.txt" {
		t.Fatalf("plain run since start after turn 1: %s", got)
	}
	wc := lab.changes(wt.ID, conv.SinceStart)
	if got := changedFiles(wc); got != "modified lab-edit.txt" || wc.Added != 1 || wc.Removed != 1 {
		t.Fatalf("worktree run since start: %s (%+v)", got, wc)
	}

	// Turn 2 of the plain run edits lab-edit.txt (after lab recorded
	// where turn 1 ended).
	lab.waitSnapshots(plain.ID, 2)
	lab.reply(plain.ID, s.edit)
	lab.waitPage(plain.ID, "the plain run's second turn", func(p conv.Page) bool {
		n := 0
		for _, m := range p.Messages {
			if m.Kind == conv.KindText && m.Role == conv.RoleUser {
				n++
			}
		}
		return n == 2 && p.State == conv.StateNeedsInput && strings.Contains(lastAssistant(p), s.done)
	})
	lab.waitSnapshots(plain.ID, 3)
	turn := lab.changes(plain.ID, conv.SinceTurn)
	if got := changedFiles(turn); got != "modified lab-edit.txt" || turn.Base.Turn != 1 {
		t.Fatalf("plain run since turn after turn 2: %s (base %+v)", got, turn.Base)
	}
	if got := changedFiles(lab.changes(plain.ID, conv.SinceStart)); got != "modified lab-edit.txt, added lab-write.txt" {
		t.Fatalf("plain run since start after turn 2: %s", got)
	}
	if got := changedFiles(lab.changes(wt.ID, conv.SinceStart)); got != "modified lab-edit.txt" {
		t.Fatalf("worktree run since start after the plain run's turn 2: %s", got)
	}
	var d conv.FileDiff
	if code := lab.call("GET", "/api/v1/runs/"+plain.ID+"/changes/diff?since=turn&path="+url.QueryEscape(fakeclaudeapi.EditFile), nil, &d); code != 200 ||
		!strings.Contains(d.Diff, "\n-hello\n+hello, edited") {
		t.Fatalf("diff: status %d %+v", code, d)
	}
	var f conv.FileView
	if code := lab.call("GET", "/api/v1/runs/"+plain.ID+"/file?path="+fakecodexapi.WriteFile, nil, &f); code != 200 || f.Text != fakeclaudeapi.WriteBody {
		t.Fatalf("file: status %d %+v", code, f)
	}
	if code := lab.call("GET", "/api/v1/runs/"+plain.ID+"/file?path=../x", nil, nil); code != 400 {
		t.Fatalf("a path out of the folder: status %d; want 400", code)
	}

	// The worktree run, ended: its change committed on its branch, the
	// worktree removed, the branch kept.
	if code := lab.call("POST", "/api/v1/runs/"+wt.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop: status %d", code)
	}
	var cr conv.CommitResult
	if code := lab.call("POST", "/api/v1/runs/"+wt.ID+"/worktree/commit", conv.CommitRequest{Message: "Edit the greeting"}, &cr); code != 200 || cr.Branch != wt.Worktree.Branch {
		t.Fatalf("commit: status %d %+v", code, cr)
	}
	if got := gitCmd(t, repo, "show", cr.Branch+":"+fakeclaudeapi.EditFile); got != fakeclaudeapi.EditAfter {
		t.Fatalf("the branch holds lab-edit.txt %q; want the run's edit", got)
	}
	if got := gitCmd(t, repo, "log", "-1", "--format=%s", cr.Branch); got != "Edit the greeting" {
		t.Fatalf("commit message %q", got)
	}
	if code := lab.call("POST", "/api/v1/runs/"+wt.ID+"/worktree/remove", conv.RemoveWorktreeRequest{}, nil); code != 204 {
		t.Fatalf("remove: status %d\n%s", code, lab.log)
	}
	if _, err := os.Stat(wt.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if got := gitCmd(t, repo, "rev-parse", cr.Branch); got != cr.Commit {
		t.Fatalf("the branch is at %s; want the commit %s", got, cr.Commit)
	}
	after := lab.run(wt.ID)
	if after.Worktree == nil || after.Worktree.Removed == nil {
		t.Fatalf("run after removal: %+v; want its worktree marked removed", after.Worktree)
	}
	if c := lab.changes(wt.ID, conv.SinceStart); c.Current != "snapshot" || changedFiles(c) != "modified lab-edit.txt" {
		t.Fatalf("changes of the removed worktree: %+v", c)
	}

	// Archived: its snapshots go, store and all.
	var bulk conv.BulkResult
	if code := lab.call("POST", "/api/v1/runs/archive", map[string][]string{"ids": {wt.ID}}, &bulk); code != 200 || len(bulk.Done) != 1 {
		t.Fatalf("archive: status %d %+v", code, bulk)
	}
	if code, msg := lab.failure("GET", "/api/v1/runs/"+wt.ID+"/changes"); code != 409 || !strings.Contains(msg, "archived") {
		t.Fatalf("changes of an archived run: %d %q", code, msg)
	}
	if _, err := os.Stat(filepath.Join(lab.state, "runs", wt.ID, "snapshots")); !os.IsNotExist(err) {
		t.Fatalf("the archived run's snapshot store is still there: %v", err)
	}

	// A run in a folder outside git: a clear answer, not an empty list.
	var outside conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Provider: s.provider, Cwd: claudetest.ShortTempDir(t, "plain")}, &outside); code != 201 {
		t.Fatalf("start outside git: status %d", code)
	}
	if code, msg := lab.failure("GET", "/api/v1/runs/"+outside.ID+"/changes"); code != 409 || !strings.Contains(msg, "changes need a git repository") {
		t.Fatalf("changes outside git: %d %q; want 409 saying a git repository is needed", code, msg)
	}
}

// failure makes a request that should fail and returns its status and
// error message.
func (l *labServer) failure(method, path string) (int, string) {
	l.t.Helper()
	req, _ := http.NewRequest(method, l.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+l.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Error
}
