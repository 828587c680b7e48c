package store

import (
	"context"
	"testing"
	"time"
)

// Snapshots number themselves per run from 0, list oldest first, survive
// reopening the database (they are rows), and drop per run.
func TestSnapshotsAndWorktrees(t *testing.T) {
	ctx := context.Background()
	db := openRunsDB(t)
	t0 := time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)
	for _, id := range []string{"r1", "r2", "r3"} {
		if err := db.CreateRun(ctx, sampleRun(id, t0)); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range []int{0, 1, 2} {
		s, err := db.AddSnapshot(ctx, "r1", p, "tree"+string(rune('a'+i)), t0.Add(time.Duration(i)*time.Second))
		if err != nil || s.Seq != i {
			t.Fatalf("AddSnapshot %d: %+v %v", i, s, err)
		}
	}
	if s, _ := db.AddSnapshot(ctx, "r2", 0, "x", t0); s.Seq != 0 {
		t.Fatalf("another run's first snapshot has seq %d", s.Seq)
	}
	got, err := db.Snapshots(ctx, "r1")
	if err != nil || len(got) != 3 || got[2].Tree != "treec" || got[2].Prompts != 2 || !got[1].TakenAt.Equal(t0.Add(time.Second)) {
		t.Fatalf("Snapshots: %+v %v", got, err)
	}
	if n, err := db.DropSnapshots(ctx, "r1"); n != 3 || err != nil {
		t.Fatalf("DropSnapshots: %d %v", n, err)
	}
	if got, _ := db.Snapshots(ctx, "r1"); len(got) != 0 {
		t.Fatalf("after the drop: %+v", got)
	}
	if got, _ := db.Snapshots(ctx, "r2"); len(got) != 1 {
		t.Fatalf("another run's snapshots went too: %+v", got)
	}

	// Worktrees: one per run; a resumed run (r3) shares r1's; the newest
	// run's record is found by path; removal marks every run's.
	w := Worktree{RunID: "r1", Repo: "/repo", Path: "/state/worktrees/r1", Branch: "lab/x", Base: "abc", BaseRef: "main"}
	if err := db.SetWorktree(ctx, w); err != nil {
		t.Fatal(err)
	}
	w3 := w
	w3.RunID = "r3"
	if err := db.SetWorktree(ctx, w3); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.RunWorktree(ctx, "r1"); err != nil || !ok || got != w {
		t.Fatalf("RunWorktree: %+v %v %v", got, ok, err)
	}
	if _, ok, _ := db.RunWorktree(ctx, "r2"); ok {
		t.Fatal("r2 has a worktree")
	}
	if got, ok, _ := db.WorktreeAt(ctx, w.Path); !ok || got.Branch != "lab/x" {
		t.Fatalf("WorktreeAt: %+v %v", got, ok)
	}
	if err := db.MarkWorktreeRemoved(ctx, w.Path, t0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.WorktreeAt(ctx, w.Path); ok {
		t.Fatal("a removed worktree is still found by path")
	}
	all, err := db.Worktrees(ctx)
	if err != nil || len(all) != 2 || all["r3"].RemovedAt == nil || !all["r1"].RemovedAt.Equal(t0) {
		t.Fatalf("Worktrees: %+v %v", all, err)
	}
}
