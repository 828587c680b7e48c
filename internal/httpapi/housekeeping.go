package httpapi

import (
	"context"
	"net/http"
	"strings"

	"lab/internal/conv"
)

// Housekeeping tidies the runs list: archived runs (ended ones the
// operator put away) and bulk stops of idle runs. Bulk actions report per
// run what they did and what they left alone, and never fail as a whole
// for one run's sake.
type Housekeeping interface {
	// Archived returns the archived runs, most recently archived first.
	Archived(ctx context.Context) ([]conv.Run, error)
	// SetArchived archives (or unarchives) ended runs; live ones are
	// skipped.
	SetArchived(ctx context.Context, ids []string, archived bool) (conv.BulkResult, error)
	// StopIdle stops the runs among ids that are idle right now.
	StopIdle(ctx context.Context, ids []string) (conv.BulkResult, error)
}

// maxBulk bounds one bulk request.
const maxBulk = 500

type bulkRequest struct {
	IDs []string `json:"ids"`
}

func (s *Server) housekeeping() (Housekeeping, error) {
	if s.cfg.Housekeeping == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server cannot archive or bulk-stop runs")
	}
	return s.cfg.Housekeeping, nil
}

// bulkIDs reads {ids: [...]}: at least one, at most maxBulk, each a
// non-empty id; repeats are dropped.
func (s *Server) bulkIDs(w http.ResponseWriter, r *http.Request) ([]string, error) {
	var req bulkRequest
	if err := s.decode(w, r, &req); err != nil {
		return nil, err
	}
	if len(req.IDs) == 0 {
		return nil, conv.Errorf(conv.EInvalid, "ids is required: name the runs")
	}
	if len(req.IDs) > maxBulk {
		return nil, conv.Errorf(conv.EInvalid, "at most %d ids per request", maxBulk)
	}
	seen := map[string]bool{}
	var ids []string
	for i, id := range req.IDs {
		if strings.TrimSpace(id) == "" {
			return nil, conv.Errorf(conv.EInvalid, "ids[%d] is empty", i)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func (s *Server) archiveRuns(archived bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		hk, err := s.housekeeping()
		if err != nil {
			return err
		}
		ids, err := s.bulkIDs(w, r)
		if err != nil {
			return err
		}
		path := "/api/v1/runs/unarchive"
		if archived {
			path = "/api/v1/runs/archive"
		}
		res, err := s.bulkAcross(r, ids, path, func(ids []string) (conv.BulkResult, error) {
			return hk.SetArchived(r.Context(), ids, archived)
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, res)
		return nil
	}
}

func (s *Server) stopIdle(w http.ResponseWriter, r *http.Request) error {
	hk, err := s.housekeeping()
	if err != nil {
		return err
	}
	ids, err := s.bulkIDs(w, r)
	if err != nil {
		return err
	}
	res, err := s.bulkAcross(r, ids, "/api/v1/runs/stop-idle", func(ids []string) (conv.BulkResult, error) {
		return hk.StopIdle(r.Context(), ids)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
