package main

import (
	"context"

	"lab/internal/changes"
	"lab/internal/chat"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/runs"
)

// housekeeping serves the API's archive and bulk-stop actions: archiving
// is the run store's, stopping idle runs needs the chat layer's live
// state.
type housekeeping struct {
	rs  *runs.Service
	svc *chat.Service
	pub *httpapi.Broker
	chg *changes.Service // archiving drops a run's snapshots
}

func (h housekeeping) Archived(ctx context.Context) ([]conv.Run, error) {
	return h.rs.ListArchived(ctx)
}

func (h housekeeping) SetArchived(ctx context.Context, ids []string, archived bool) (conv.BulkResult, error) {
	res := conv.BulkResult{Done: []string{}, Skipped: []conv.Skipped{}}
	for _, id := range ids {
		if _, err := h.rs.SetArchived(ctx, id, archived); err != nil {
			if conv.KindOf(err) == conv.EInternal {
				return res, err
			}
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: conv.MessageOf(err)})
			continue
		}
		if archived && h.chg != nil {
			if err := h.chg.Drop(ctx, id); err != nil {
				return res, err
			}
		}
		res.Done = append(res.Done, id)
		h.pub.Publish(conv.Event{Type: conv.EventRunChanged, RunID: id, State: conv.StateEnded})
	}
	return res, nil
}

func (h housekeeping) StopIdle(ctx context.Context, ids []string) (conv.BulkResult, error) {
	return h.svc.StopIdle(ctx, ids)
}
