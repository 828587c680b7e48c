package runs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/uploads"
)

// TestStartTakesStagedUploads: a start request's staged uploads move into
// the run's uploads folder; a file that is not an image is named in the
// prompt the CLI gets (its images are the provider's to hand over); a bad
// upload id starts nothing and keeps the staged files; a resumed run
// takes none.
func TestStartTakesStagedUploads(t *testing.T) {
	f := newFixture(t, "")
	store := &uploads.Store{Staging: filepath.Join(f.cfg.StateDir, "uploads")}
	f.cfg.Uploads = store
	f.restart()
	notes, err := store.Stage("notes.txt", "text/plain", strings.NewReader("read me\n"))
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		req  conv.StartRequest
		msg  string
	}{
		{"an unknown upload", conv.StartRequest{Cwd: f.work, Prompt: "go", Uploads: []string{notes.ID, "0123456789abcdef"}}, "upload 0123456789abcdef"},
		{"a resumed run", conv.StartRequest{Cwd: f.work, Resume: "8a3e132c-0000-4000-8000-000000000001", Uploads: []string{notes.ID}}, "resumed run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Start(context.Background(), c.req)
			if conv.KindOf(err) != conv.EInvalid || !strings.Contains(conv.MessageOf(err), c.msg) {
				t.Fatalf("got %v; want invalid saying %q", err, c.msg)
			}
			if runs, _ := f.svc.List(context.Background()); len(runs) != 0 {
				t.Fatalf("runs %+v after a refused start; want none", runs)
			}
			if _, err := os.Stat(notes.Path); err != nil {
				t.Fatalf("the staged upload went: %v", err)
			}
		})
	}

	run := f.start(conv.StartRequest{Prompt: "read the notes", Uploads: []string{notes.ID}})
	rec, _ := f.svc.Record(context.Background(), run.ID)
	moved := filepath.Join(uploads.RunDir(rec.RunDir), filepath.Base(notes.Path))
	if _, err := os.Stat(moved); err != nil {
		t.Fatalf("the upload is not in the run's folder: %v", err)
	}
	if _, err := os.Stat(notes.Path); !os.IsNotExist(err) {
		t.Fatalf("the upload is still staged: %v", err)
	}
	var argv []byte
	claudetest.Poll(t, 10*time.Second, "the stub's argv", func() bool {
		argv, _ = os.ReadFile(filepath.Join(f.work, ".stub-argv"))
		return len(argv) > 0
	})
	if want := "read the notes\n\n[Attached file: " + moved + "]"; !strings.Contains(string(argv), want) {
		t.Fatalf("argv %q; want the prompt naming the file %q", argv, want)
	}
	if run.Title != "read the notes" {
		t.Errorf("title %q; want the prompt as typed", run.Title)
	}
}
