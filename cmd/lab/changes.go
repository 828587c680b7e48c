package main

import (
	"context"
	"log/slog"

	"lab/internal/changes"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/runs"
	"lab/internal/store"
)

// changesAPI serves the API's changes endpoints: snapshots and diffs are
// the changes layer's, a worktree's commit and removal the run
// lifecycle's (the changes layer records the folder once more before it
// goes).
type changesAPI struct {
	chg *changes.Service
	rs  *runs.Service
	pub *httpapi.Broker
	log *slog.Logger
}

func (a changesAPI) Changes(ctx context.Context, runID string, since conv.Since) (conv.Changes, error) {
	return a.chg.Changes(ctx, runID, since)
}

func (a changesAPI) Diff(ctx context.Context, runID, path string, since conv.Since) (conv.FileDiff, error) {
	return a.chg.Diff(ctx, runID, path, since)
}

func (a changesAPI) File(ctx context.Context, runID, path string) (conv.FileView, error) {
	return a.chg.File(ctx, runID, path)
}

func (a changesAPI) SessionChanges(ctx context.Context, sessionID string) (conv.TouchedFiles, error) {
	return a.chg.SessionChanges(ctx, sessionID)
}

func (a changesAPI) SessionFile(ctx context.Context, sessionID, path string) (conv.FileView, error) {
	return a.chg.SessionFile(ctx, sessionID, path)
}

func (a changesAPI) CommitWorktree(ctx context.Context, runID, message string) (conv.CommitResult, error) {
	res, err := a.rs.CommitWorktree(ctx, runID, message)
	if err == nil {
		a.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: runID, State: conv.StateEnded})
	}
	return res, err
}

func (a changesAPI) RemoveWorktree(ctx context.Context, runID string, force bool) error {
	err := a.rs.RemoveWorktree(ctx, runID, force, func(rec store.RunRecord) {
		if err := a.chg.Settle(ctx, rec); err != nil {
			// The worktree goes all the same; its changes then end at the
			// last turn's snapshot.
			a.log.Warn("changes: last snapshot before removing the worktree", "run", rec.ID, "err", err)
		}
	})
	if err == nil {
		a.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: runID, State: conv.StateEnded})
	}
	return err
}
