package chat

import (
	"context"

	"lab/internal/conv"
)

// StopIdle stops those of ids that are idle right now: alive, not
// working, with no dialog waiting. The operator confirmed a list a
// moment ago; a run that started working or asking since is left alone
// and reported, so a bulk stop never cuts off a turn in progress.
func (s *Service) StopIdle(ctx context.Context, ids []string) (conv.BulkResult, error) {
	res := conv.BulkResult{Done: []string{}, Skipped: []conv.Skipped{}}
	for _, id := range ids {
		r, err := s.Get(ctx, id)
		if err != nil {
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: conv.MessageOf(err)})
			continue
		}
		if why := notIdle(r); why != "" {
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: why})
			continue
		}
		if err := s.Stop(ctx, id); err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: conv.MessageOf(err)})
			continue
		}
		res.Done = append(res.Done, id)
	}
	return res, nil
}

// notIdle says why r is not idle, or "" when it is.
func notIdle(r conv.Run) string {
	switch {
	case r.State == conv.StateEnded:
		return "it has already ended"
	case r.Attached != nil:
		return "it follows a session lab did not start: detach it from its chat"
	case r.Pending || r.State == conv.StateQuestion:
		return "a dialog is waiting for an answer"
	case r.State == conv.StateWorking:
		return "it is working"
	}
	return ""
}
