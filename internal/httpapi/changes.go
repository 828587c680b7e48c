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

func (s *Server) changesSvc() (Changes, error) {
	if s.cfg.Changes == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server does not keep runs' changes")
	}
	return s.cfg.Changes, nil
}

// pathParam is the required ?path=.
func pathParam(r *http.Request) (string, error) {
	p := r.URL.Query().Get("path")
	if p == "" {
		return "", conv.Errorf(conv.EInvalid, "path is required: a file relative to the run's folder")
	}
	return p, nil
}

func (s *Server) runChanges(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	out, err := c.Changes(r.Context(), r.PathValue("id"), conv.Since(r.URL.Query().Get("since")))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) runDiff(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	p, err := pathParam(r)
	if err != nil {
		return err
	}
	out, err := c.Diff(r.Context(), r.PathValue("id"), p, conv.Since(r.URL.Query().Get("since")))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) runFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	p, err := pathParam(r)
	if err != nil {
		return err
	}
	out, err := c.File(r.Context(), r.PathValue("id"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) sessionChanges(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	out, err := c.SessionChanges(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) sessionFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	p, err := pathParam(r)
	if err != nil {
		return err
	}
	out, err := c.SessionFile(r.Context(), r.PathValue("id"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) commitWorktree(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	var req conv.CommitRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	out, err := c.CommitWorktree(r.Context(), r.PathValue("id"), req.Message)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) removeWorktree(w http.ResponseWriter, r *http.Request) error {
	c, err := s.changesSvc()
	if err != nil {
		return err
	}
	var req conv.RemoveWorktreeRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if err := c.RemoveWorktree(r.Context(), r.PathValue("id"), req.Force); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
