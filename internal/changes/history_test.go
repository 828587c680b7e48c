package changes

import (
	"context"
	"path/filepath"
	"testing"

	"lab/internal/conv"
)

// fakeSessions is a history of one session, paged like the real one.
type fakeSessions struct {
	sess conv.Session
	msgs []conv.Message
}

func (f fakeSessions) Get(ctx context.Context, id string) (conv.Session, error) {
	if id != f.sess.ID {
		return conv.Session{}, conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	return f.sess, nil
}

func (f fakeSessions) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	var p conv.Page
	for _, m := range f.msgs {
		if m.Seq > q.After && len(p.Messages) < q.Limit {
			p.Messages = append(p.Messages, m)
		}
	}
	if n := len(p.Messages); n > 0 {
		p.FirstSeq, p.LastSeq = p.Messages[0].Seq, p.Messages[n-1].Seq
	}
	return p, nil
}

// A history session's changes are the files its calls wrote, counted per
// file across pages, relative to its folder; a file outside it stays
// absolute and marked.
func TestSessionChanges(t *testing.T) {
	folder := t.TempDir()
	writeFiles(t, folder, map[string]string{"a.txt": "now\n"})
	var msgs []conv.Message
	tool := func(files ...string) {
		msgs = append(msgs, conv.Message{Seq: len(msgs) + 1, Kind: conv.KindTool, Tool: &conv.ToolCall{ID: "x", Files: files}})
	}
	tool(filepath.Join(folder, "a.txt"))
	for range 600 { // past one page
		msgs = append(msgs, conv.Message{Seq: len(msgs) + 1, Kind: conv.KindText, Role: conv.RoleAssistant, Text: "…"})
	}
	tool("a.txt", "sub/b.txt")
	tool("/etc/hosts")
	tool()
	svc := New(Config{DB: openDB(t, filepath.Join(t.TempDir(), "lab.db")), Sessions: fakeSessions{conv.Session{ID: "s1", ProjectPath: folder}, msgs}})
	t.Cleanup(svc.Close)
	got, err := svc.SessionChanges(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := []conv.TouchedFile{{Path: "/etc/hosts", Calls: 1, Outside: true}, {Path: "a.txt", Calls: 2}, {Path: "sub/b.txt", Calls: 1}}
	if got.Folder != folder || len(got.Files) != len(want) {
		t.Fatalf("got %+v; want %+v", got, want)
	}
	for i := range want {
		if got.Files[i] != want[i] {
			t.Errorf("file %d: %+v; want %+v", i, got.Files[i], want[i])
		}
	}
	if v, err := svc.SessionFile(context.Background(), "s1", "a.txt"); err != nil || v.Text != "now\n" {
		t.Fatalf("SessionFile: %+v %v", v, err)
	}
	if _, err := svc.SessionFile(context.Background(), "s1", "../x"); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("SessionFile out of the folder: %v", err)
	}
	if _, err := svc.SessionChanges(context.Background(), "nope"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("unknown session: %v", err)
	}
}
