package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"lab/internal/conv"
)

func openRunsDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func sampleRun(id string, started time.Time) RunRecord {
	return RunRecord{
		ID: id, Cwd: "/w", Title: "w", TitleAuto: true, Model: "opus", PermissionMode: "plan",
		CLIVersion: "2.1.328", Bin: "/bin/claude", TmuxSession: "lab-" + id, RunDir: "/state/runs/" + id,
		StartedAt: started,
	}
}

func TestRunsRoundTripAndLifecycle(t *testing.T) {
	ctx := context.Background()
	db := openRunsDB(t)
	t0 := time.Date(2026, 7, 8, 9, 10, 11, 123e6, time.UTC)
	if err := db.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(ctx, sampleRun("r2", t0.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(ctx, sampleRun("r1", t0)); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("duplicate id: got %v; want a conflict", err)
	}
	got, err := db.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if want := sampleRun("r1", t0); got.StartedAt != want.StartedAt || got.Cwd != want.Cwd || got.Model != want.Model ||
		got.PermissionMode != want.PermissionMode || got.TmuxSession != want.TmuxSession || !got.TitleAuto || !got.Live() {
		t.Fatalf("got %+v; want %+v", got, want)
	}
	if _, err := db.GetRun(ctx, "nope"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("got %v; want not found", err)
	}

	// Session and transcript, then a /clear moves the run to a new session.
	if err := db.SetRunSession(ctx, "r1", "s-a", "/h/a.jsonl", t0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRunSession(ctx, "r1", "s-b", "/h/b.jsonl", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRunSession(ctx, "nope", "s-c", "/h/c.jsonl", t0); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("got %v; want not found", err)
	}
	got, _ = db.GetRun(ctx, "r1")
	if got.SessionID != "s-b" || got.TranscriptPath != "/h/b.jsonl" {
		t.Fatalf("got session %q %q; want s-b /h/b.jsonl", got.SessionID, got.TranscriptPath)
	}
	owners, err := db.RunSessions(ctx)
	if err != nil || owners["s-a"] != "r1" || owners["s-b"] != "r1" || len(owners) != 2 {
		t.Fatalf("got %v, %v; want both sessions owned by r1", owners, err)
	}

	// The first prompt replaces the directory title once.
	if ch, err := db.SetRunTitle(ctx, "r1", "fix the bug"); err != nil || !ch {
		t.Fatalf("got %v, %v; want the title changed", ch, err)
	}
	if ch, _ := db.SetRunTitle(ctx, "r1", "later prompt"); ch {
		t.Fatal("a second prompt replaced the title; want the first kept")
	}

	if so, err := db.SessionOwners(ctx); err != nil || so["s-a"] != (SessionOwner{"r1", true}) || len(so) != 2 {
		t.Fatalf("got owners %v, %v; want r1 live for both sessions", so, err)
	}
	live, _ := db.ListRuns(ctx, true)
	if len(live) != 2 || live[0].ID != "r2" {
		t.Fatalf("got %d live runs (first %q); want 2, newest first", len(live), live[0].ID)
	}
	end := t0.Add(time.Hour)
	if was, err := db.EndRun(ctx, "r1", end, "stopped"); err != nil || !was {
		t.Fatalf("got %v, %v; want ended", was, err)
	}
	if was, err := db.EndRun(ctx, "r1", end.Add(time.Hour), "exited"); err != nil || was {
		t.Fatalf("ending twice: got %v, %v; want false, nil", was, err)
	}
	if _, err := db.EndRun(ctx, "nope", end, "x"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("got %v; want not found", err)
	}
	got, _ = db.GetRun(ctx, "r1")
	if got.Live() || !got.EndedAt.Equal(end) || got.EndReason != "stopped" || got.Title != "fix the bug" {
		t.Fatalf("got %+v; want ended at %v, reason stopped, first title kept", got, end)
	}
	if so, _ := db.SessionOwners(ctx); so["s-b"] != (SessionOwner{"r1", false}) {
		t.Fatalf("got owner %v of s-b after r1 ended; want r1, not live", so["s-b"])
	}
	// A run resuming s-b takes it over.
	db.SetRunSession(ctx, "r2", "s-b", "/h/b.jsonl", end)
	if so, _ := db.SessionOwners(ctx); so["s-b"] != (SessionOwner{"r2", true}) {
		t.Fatalf("got owner %v of s-b after r2 resumed it; want r2, live", so["s-b"])
	}
	live, _ = db.ListRuns(ctx, true)
	all, _ := db.ListRuns(ctx, false)
	if len(live) != 1 || len(all) != 2 {
		t.Fatalf("got %d live, %d all; want 1, 2", len(live), len(all))
	}
}

func TestArchiveHidesEndedRunsOnly(t *testing.T) {
	ctx := context.Background()
	db := openRunsDB(t)
	t0 := time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c"} {
		if err := db.CreateRun(ctx, sampleRun(id, t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	at := t0.Add(time.Hour)
	if _, err := db.SetRunArchived(ctx, "a", &at); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("archiving a live run: got %v; want a conflict", err)
	}
	if _, err := db.SetRunArchived(ctx, "nope", &at); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("archiving an unknown run: got %v; want not found", err)
	}
	db.EndRun(ctx, "a", at, "stopped")
	db.EndRun(ctx, "b", at, "stopped")
	if ch, err := db.SetRunArchived(ctx, "a", &at); err != nil || !ch {
		t.Fatalf("archive a: got %v, %v", ch, err)
	}
	later := at.Add(time.Minute)
	db.SetRunArchived(ctx, "b", &later)
	if ch, err := db.SetRunArchived(ctx, "a", &later); err != nil || ch {
		t.Fatalf("archiving twice: got %v, %v; want no change", ch, err)
	}
	all, _ := db.ListRuns(ctx, false)
	archived, _ := db.ListArchivedRuns(ctx)
	if len(all) != 1 || all[0].ID != "c" || len(archived) != 2 || archived[0].ID != "b" || !archived[1].ArchivedAt.Equal(at) {
		t.Fatalf("got list %v and archived %v; want c listed, b then a archived", ids(all), ids(archived))
	}
	if ch, err := db.SetRunArchived(ctx, "a", nil); err != nil || !ch {
		t.Fatalf("unarchive: got %v, %v", ch, err)
	}
	all, _ = db.ListRuns(ctx, false)
	if len(all) != 2 || all[1].ID != "a" || all[1].ArchivedAt != nil {
		t.Fatalf("after unarchiving a: got %v", ids(all))
	}
}

func ids(rs []RunRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestAttachedRunRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openRunsDB(t)
	r := sampleRun("att", time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC))
	r.TmuxSession = ""
	r.Attach = Attach{PID: 4242, ProcStart: "1234", Socket: "/tmp/tmux-0/default", Pane: "%3", TmuxSession: "ops"}
	if err := db.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun(ctx, "att")
	if err != nil || got.Attach != r.Attach || !got.Attached() {
		t.Fatalf("got %+v, %v; want the attachment back", got.Attach, err)
	}
	plain, _ := db.GetRun(ctx, "att")
	plain.Attach = Attach{}
	if plain.Attached() {
		t.Fatal("a run without a pid reports attached")
	}
}

func TestRunSeenSurvivesReopenAndNeverMovesBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)
	if err := db.CreateRun(ctx, sampleRun("a", t0)); err != nil {
		t.Fatal(err)
	}
	if r, _ := db.GetRun(ctx, "a"); r.SeenAt != nil {
		t.Fatalf("a new run: got seen_at %v; want none", r.SeenAt)
	}
	seen := t0.Add(time.Hour)
	if err := db.SetRunSeen(ctx, "a", seen); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRunSeen(ctx, "a", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRunSeen(ctx, "nope", seen); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("an unknown run: got %v; want not found", err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.GetRun(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if r.SeenAt == nil || !r.SeenAt.Equal(seen) {
		t.Fatalf("after reopening: got seen_at %v; want %v (an older report does not move it back)", r.SeenAt, seen)
	}
}
