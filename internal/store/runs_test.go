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
	live, _ = db.ListRuns(ctx, true)
	all, _ := db.ListRuns(ctx, false)
	if len(live) != 1 || len(all) != 2 {
		t.Fatalf("got %d live, %d all; want 1, 2", len(live), len(all))
	}
}
