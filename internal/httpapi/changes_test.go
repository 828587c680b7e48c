package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"lab/internal/conv"
)

// fakeChanges records what the handlers asked and answers from a table.
type fakeChanges struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakeChanges) note(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeChanges) Changes(ctx context.Context, runID string, since conv.Since) (conv.Changes, error) {
	f.note("changes " + runID + " " + string(since))
	if runID == "plain" {
		return conv.Changes{}, conv.Errorf(conv.EConflict, "changes need a git repository: /w is not in one")
	}
	return conv.Changes{Since: since, Files: []conv.FileChange{{Path: "a b.txt", Status: conv.FileAdded, Added: 2}}}, nil
}

func (f *fakeChanges) Diff(ctx context.Context, runID, path string, since conv.Since) (conv.FileDiff, error) {
	f.note("diff " + runID + " " + path + " " + string(since))
	if strings.Contains(path, "..") {
		return conv.FileDiff{}, conv.Errorf(conv.EInvalid, "path: climbs out")
	}
	return conv.FileDiff{Path: path, Diff: "--- x\n+++ x"}, nil
}

func (f *fakeChanges) File(ctx context.Context, runID, path string) (conv.FileView, error) {
	f.note("file " + runID + " " + path)
	return conv.FileView{Path: path, Text: "hi"}, nil
}

func (f *fakeChanges) SessionChanges(ctx context.Context, id string) (conv.TouchedFiles, error) {
	f.note("session " + id)
	return conv.TouchedFiles{Files: []conv.TouchedFile{{Path: "a", Calls: 1}}}, nil
}

func (f *fakeChanges) SessionFile(ctx context.Context, id, path string) (conv.FileView, error) {
	f.note("session-file " + id + " " + path)
	return conv.FileView{Path: path}, nil
}

func (f *fakeChanges) CommitWorktree(ctx context.Context, runID, message string) (conv.CommitResult, error) {
	f.note("commit " + runID + " " + message)
	return conv.CommitResult{Commit: "abc", Branch: "lab/x"}, nil
}

func (f *fakeChanges) RemoveWorktree(ctx context.Context, runID string, force bool) error {
	f.note("remove " + runID + map[bool]string{true: " force", false: ""}[force])
	if !force {
		return conv.Errorf(conv.EConflict, "the worktree has uncommitted changes (a.txt)")
	}
	return nil
}

// The changes endpoints pass their parameters through (the path as
// sent, decoded), require a path, and answer errors by kind.
func TestChangesEndpoints(t *testing.T) {
	fc := &fakeChanges{}
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Changes = fc }})
	bearer := h.token("changes")
	get := func(path string) resp {
		t.Helper()
		return h.do(rq{method: "GET", path: path, bearer: bearer})
	}
	var ch conv.Changes
	if got := get("/api/v1/runs/r1/changes?since=turn"); got.status != 200 || json.Unmarshal(got.body, &ch) != nil || ch.Files[0].Path != "a b.txt" {
		t.Fatalf("changes: %d %s", got.status, got.body)
	}
	if got := get("/api/v1/runs/plain/changes"); got.status != http.StatusConflict || !strings.Contains(got.errMsg(t), "changes need a git repository") {
		t.Fatalf("changes of a plain folder: %d %s", got.status, got.body)
	}
	if got := get("/api/v1/runs/r1/changes/diff?path=na%C3%AFve%20caf%C3%A9.txt&since=start"); got.status != 200 {
		t.Fatalf("diff: %d %s", got.status, got.body)
	}
	if got := get("/api/v1/runs/r1/changes/diff?path=..%2Fetc%2Fpasswd"); got.status != http.StatusBadRequest {
		t.Fatalf("diff of an escaping path: %d %s", got.status, got.body)
	}
	for _, p := range []string{"/api/v1/runs/r1/changes/diff", "/api/v1/runs/r1/file", "/api/v1/sessions/s1/file"} {
		if got := get(p); got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), "path is required") {
			t.Errorf("%s without a path: %d %s", p, got.status, got.body)
		}
	}
	get("/api/v1/runs/r1/file?path=src/a.go")
	get("/api/v1/sessions/s1/changes")
	get("/api/v1/sessions/s1/file?path=a")
	post := func(path, body string) resp {
		t.Helper()
		return h.do(rq{method: "POST", path: path, body: body, bearer: bearer})
	}
	var cr conv.CommitResult
	if got := post("/api/v1/runs/r1/worktree/commit", `{"message":"Do it"}`); got.status != 200 || json.Unmarshal(got.body, &cr) != nil || cr.Branch != "lab/x" {
		t.Fatalf("commit: %d %s", got.status, got.body)
	}
	if got := post("/api/v1/runs/r1/worktree/remove", `{}`); got.status != http.StatusConflict || !strings.Contains(got.errMsg(t), "uncommitted") {
		t.Fatalf("remove of a dirty worktree: %d %s", got.status, got.body)
	}
	if got := post("/api/v1/runs/r1/worktree/remove", `{"force":true}`); got.status != http.StatusNoContent {
		t.Fatalf("forced remove: %d %s", got.status, got.body)
	}
	if got := post("/api/v1/runs/r1/worktree/remove", `{"force":"yes"}`); got.status != http.StatusBadRequest {
		t.Fatalf("force as a string: %d %s", got.status, got.body)
	}
	want := []string{
		"changes r1 turn", "changes plain ", "diff r1 naïve café.txt start", "diff r1 ../etc/passwd ",
		"file r1 src/a.go", "session s1", "session-file s1 a", "commit r1 Do it", "remove r1", "remove r1 force",
	}
	if strings.Join(fc.calls, "|") != strings.Join(want, "|") {
		t.Fatalf("calls:\n%s\nwant:\n%s", strings.Join(fc.calls, "\n"), strings.Join(want, "\n"))
	}

	// Without a changes service: 503.
	h2 := newHarness(t, harnessOpt{config: func(c *Config) { c.Changes = nil }})
	if got := h2.do(rq{method: "GET", path: "/api/v1/runs/r1/changes", bearer: h2.token("x")}); got.status != http.StatusServiceUnavailable {
		t.Fatalf("no changes service: %d", got.status)
	}
}
