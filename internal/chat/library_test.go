package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/conv"
)

func writeSession(t *testing.T, root, slug, id string, mtime time.Time, lines ...string) string {
	t.Helper()
	dir := filepath.Join(root, slug)
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, id+".jsonl")
	appendLines(t, p, lines...)
	os.Chtimes(p, mtime, mtime)
	return p
}

func TestLibraryListsFiltersAndPages(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i, s := range []struct{ slug, cwd, title string }{
		{"-srv-api", "/srv/api", "Add a health endpoint"},
		{"-srv-web", "/srv/web", "Fix the login page"},
		{"-home-me-notes", "/home/me/notes", "Summarise my notes"},
		{"-srv-api", "/srv/api", "Write API docs"},
	} {
		line := mustJSON(map[string]any{"type": "user", "cwd": s.cwd, "message": map[string]any{"role": "user", "content": s.title}})
		writeSession(t, root, s.slug, fmt.Sprintf("sess-%d", i), base.Add(time.Duration(i)*time.Minute), line)
	}
	lib := NewLibrary(testShelves(root), func(context.Context) map[string]Owner {
		return map[string]Owner{"sess-1": {RunID: "run-9", Live: true}}
	})
	ctx := context.Background()

	all, err := lib.List(ctx, SessionFilter{Limit: 10})
	if err != nil || all.Total != 4 || len(all.Sessions) != 4 || all.Sessions[0].ID != "sess-3" {
		t.Fatalf("got %+v, %v; want 4 sessions newest (sess-3) first", all, err)
	}
	if all.Sessions[2].RunID != "run-9" || !all.Sessions[2].RunLive {
		t.Fatalf("got run id %q on sess-1; want run-9", all.Sessions[2].RunID)
	}
	api, _ := lib.List(ctx, SessionFilter{Q: "SRV/API", Limit: 10})
	if api.Total != 2 || api.Sessions[0].Title != "Write API docs" {
		t.Fatalf("project filter: got %+v", api)
	}
	login, _ := lib.List(ctx, SessionFilter{Q: "login", Limit: 10})
	if login.Total != 1 || login.Sessions[0].ProjectPath != "/srv/web" {
		t.Fatalf("title filter: got %+v", login)
	}
	page1, _ := lib.List(ctx, SessionFilter{Limit: 3})
	page2, _ := lib.List(ctx, SessionFilter{Offset: page1.NextOffset, Limit: 3})
	if len(page1.Sessions) != 3 || page1.NextOffset != 3 || len(page2.Sessions) != 1 || page2.NextOffset != 0 || page2.Sessions[0].ID != "sess-0" {
		t.Fatalf("paging: got %+v then %+v", page1, page2)
	}
	if _, err := lib.Messages(ctx, "nope", conv.Query{}); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("missing session: got %v; want not found", err)
	}
	if _, err := lib.Messages(ctx, "../x", conv.Query{}); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("bad id: got %v; want invalid", err)
	}
}

func TestLibraryWindowsFoldOnce(t *testing.T) {
	root := t.TempDir()
	var lines []string
	for i := range 500 {
		lines = append(lines, lineUser(fmt.Sprintf("prompt %d", i)), lineAssistantText(fmt.Sprintf("answer %d", i), "end_turn"))
	}
	lines = append(lines, lineToolUse("toolu_q", "AskUserQuestion", singleQuestion))
	path := writeSession(t, root, "-w", "big", time.Now(), lines...)
	lib := NewLibrary(testShelves(root), nil)
	ctx := context.Background()

	latest, err := lib.Messages(ctx, "big", conv.Query{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(latest.Messages) != 50 || latest.LastSeq != 1001 || !latest.HasMoreBefore {
		t.Fatalf("latest window: got %d msgs last %d more %v", len(latest.Messages), latest.LastSeq, latest.HasMoreBefore)
	}
	if latest.PendingDialog == nil || latest.PendingDialog.Answerable {
		t.Fatalf("history pending dialog: got %+v; want present but not answerable", latest.PendingDialog)
	}
	v := lib.views.get(path, claudeFold)
	folded := v.Bytes()
	older, _ := lib.Messages(ctx, "big", conv.Query{Before: latest.FirstSeq, Limit: 50})
	if older.LastSeq != latest.FirstSeq-1 || len(older.Messages) != 50 {
		t.Fatalf("older window: got first %d last %d n %d; want ending at %d", older.FirstSeq, older.LastSeq, len(older.Messages), latest.FirstSeq-1)
	}
	if lib.views.get(path, claudeFold) != v || v.Bytes() != folded {
		t.Fatal("second window refolded the transcript; want the cached view reused")
	}
	if lib.views.len() != 1 {
		t.Fatalf("got %d cached views; want 1", lib.views.len())
	}
}

func TestViewCacheBounds(t *testing.T) {
	dir := t.TempDir()
	c := newViewCache(2, 1<<30)
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		appendLines(t, p, lineUser("hi"))
		c.get(p, claudeFold).Sync()
		c.trim()
	}
	if c.len() != 2 {
		t.Fatalf("got %d views; want 2 (entry bound)", c.len())
	}
	small := newViewCache(10, 1) // any folded bytes exceed the byte bound
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		small.get(p, claudeFold).Sync()
		small.trim()
	}
	if small.len() != 1 {
		t.Fatalf("got %d views; want 1 (byte bound keeps only the newest)", small.len())
	}
}

// Codex sessions carry their message count and are searched by their
// conversation like Claude Code's (the index finds them by their file).
func TestLibraryCountsAndSearchesCodexSessions(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	dir := filepath.Join(root, "2026", "12", "01")
	os.MkdirAll(dir, 0o755)
	body, err := os.ReadFile("../codex/testdata/captured/text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "rollout-2026-12-01T03-51-14-01a22fba-63c4-7833-a162-b71b1a491e8a.jsonl"), body, 0o644)
	whole := codex.NewFold()
	whole.Write(body)
	lib := NewLibrary([]Shelf{{Provider: codex.Name, History: codex.NewHistory(root), NewFold: func() agent.Fold { return codex.NewFold() }}}, nil)
	got, err := lib.List(context.Background(), SessionFilter{Limit: 10})
	if err != nil || len(got.Sessions) != 1 {
		t.Fatalf("got %+v, %v", got, err)
	}
	if s := got.Sessions[0]; s.Messages == 0 || s.Messages != whole.Len() || s.LastActivity.IsZero() {
		t.Fatalf("session %+v: %d messages; want the fold's %d and a last activity", s, s.Messages, whole.Len())
	}
	msgs, _ := whole.Messages(0, 0, 0)
	var word string
	for _, m := range msgs {
		if m.Role == conv.RoleAssistant && m.Text != "" {
			word = strings.Fields(m.Text)[0]
		}
	}
	if found, _ := lib.List(context.Background(), SessionFilter{Q: word, Limit: 10}); word == "" || found.Total != 1 {
		t.Fatalf("searching the assistant's word %q: got %+v", word, found)
	}
}
