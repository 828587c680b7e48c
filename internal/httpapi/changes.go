package httpapi

import (
	"context"
	"net/http"

	"lab/internal/conv"
)

// Changes answers what a run changed in its folder (snapshots at its
// start and turn ends compared with the folder now), a history session's
// written files, a file as it is now, and a worktree run's commit and
// removal. Errors: ENotFound, EInvalid for a bad since or a path that
// leaves the folder, EConflict when the run has no snapshots (the
// message says why: not a git repository, archived…) or its worktree
// cannot be committed or removed now.
type Changes interface {
	Changes(ctx context.Context, runID string, since conv.Since) (conv.Changes, error)
	Diff(ctx context.Context, runID, path string, since conv.Since) (conv.FileDiff, error)
	File(ctx context.Context, runID, path string) (conv.FileView, error)
	SessionChanges(ctx context.Context, sessionID string) (conv.TouchedFiles, error)
	SessionFile(ctx context.Context, sessionID, path string) (conv.FileView, error)
	CommitWorktree(ctx context.Context, runID, message string) (conv.CommitResult, error)
	RemoveWorktree(ctx context.Context, runID string, force bool) error
}

// changesCall is one changes endpoint: what it asks of the service, its
// answer served as JSON (200), or nothing (204) when it answers nil.
type changesCall func(c Changes, w http.ResponseWriter, r *http.Request, id string) (any, error)

// changesAPI adapts a changesCall: 503 without a changes service, every
// error through writeError.
func (s *Server) changesAPI(call changesCall) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if s.cfg.Changes == nil {
			return conv.Errorf(conv.EUnavailable, "this server does not keep runs' changes")
		}
		out, err := call(s.cfg.Changes, w, r, r.PathValue("id"))
		if err != nil {
			return err
		}
		if out == nil {
			w.WriteHeader(http.StatusNoContent)
			return nil
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	}
}

// pathParam is the required ?path=.
func pathParam(r *http.Request) (string, error) {
	p := r.URL.Query().Get("path")
	if p == "" {
		return "", conv.Errorf(conv.EInvalid, "path is required: a file relative to the run's folder")
	}
	return p, nil
}

func since(r *http.Request) conv.Since { return conv.Since(r.URL.Query().Get("since")) }

func (s *Server) runChanges(c Changes, _ http.ResponseWriter, r *http.Request, id string) (any, error) {
	return c.Changes(r.Context(), id, since(r))
}

func (s *Server) runDiff(c Changes, _ http.ResponseWriter, r *http.Request, id string) (any, error) {
	p, err := pathParam(r)
	if err != nil {
		return nil, err
	}
	return c.Diff(r.Context(), id, p, since(r))
}

func (s *Server) runFile(c Changes, _ http.ResponseWriter, r *http.Request, id string) (any, error) {
	p, err := pathParam(r)
	if err != nil {
		return nil, err
	}
	return c.File(r.Context(), id, p)
}

func (s *Server) sessionChanges(c Changes, _ http.ResponseWriter, r *http.Request, id string) (any, error) {
	return c.SessionChanges(r.Context(), id)
}

func (s *Server) sessionFile(c Changes, _ http.ResponseWriter, r *http.Request, id string) (any, error) {
	p, err := pathParam(r)
	if err != nil {
		return nil, err
	}
	return c.SessionFile(r.Context(), id, p)
}

func (s *Server) commitWorktree(c Changes, w http.ResponseWriter, r *http.Request, id string) (any, error) {
	var req conv.CommitRequest
	if err := s.decode(w, r, &req); err != nil {
		return nil, err
	}
	return c.CommitWorktree(r.Context(), id, req.Message)
}

func (s *Server) removeWorktree(c Changes, w http.ResponseWriter, r *http.Request, id string) (any, error) {
	var req conv.RemoveWorktreeRequest
	if err := s.decode(w, r, &req); err != nil {
		return nil, err
	}
	return nil, c.RemoveWorktree(r.Context(), id, req.Force)
}
