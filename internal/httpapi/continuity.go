package httpapi

import (
	"context"
	"net/http"

	"lab/internal/conv"
)

// Continuity keeps conversations going beyond the runs lab started:
// resuming an ended run or a history session in a new run, and attaching
// to CLI processes started outside lab. Errors: ENotFound, EConflict when
// the session is already live somewhere (the message says where),
// EInvalid when the provider cannot do it or the folder is gone.
type Continuity interface {
	// External lists the CLI processes on this machine lab did not start.
	External(ctx context.Context) ([]conv.ExternalSession, error)
	// Attach starts following one of them as a run.
	Attach(ctx context.Context, provider string, pid int) (conv.Run, error)
	// Resume starts a run continuing an ended run's session.
	Resume(ctx context.Context, runID string) (conv.Run, error)
	// ResumeSession starts a run continuing a history session.
	ResumeSession(ctx context.Context, sessionID string) (conv.Run, error)
}

// ExternalList is the body of GET /api/v1/external-sessions.
type ExternalList struct {
	Sessions []conv.ExternalSession `json:"sessions"`
}

type attachRequest struct {
	Provider string `json:"provider,omitempty"`
	PID      int    `json:"pid"`
}

func (s *Server) continuity() (Continuity, error) {
	if s.cfg.Continuity == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server cannot resume or attach sessions")
	}
	return s.cfg.Continuity, nil
}

func (s *Server) listExternal(w http.ResponseWriter, r *http.Request) error {
	c, err := s.continuity()
	if err != nil {
		return err
	}
	list, err := c.External(r.Context())
	if err != nil {
		return err
	}
	if list == nil {
		list = []conv.ExternalSession{}
	}
	writeJSON(w, http.StatusOK, ExternalList{list})
	return nil
}

func (s *Server) attach(w http.ResponseWriter, r *http.Request) error {
	c, err := s.continuity()
	if err != nil {
		return err
	}
	var req attachRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if req.PID <= 0 {
		return conv.Errorf(conv.EInvalid, "pid is required: the process to attach to")
	}
	run, err := c.Attach(r.Context(), req.Provider, req.PID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, run)
	return nil
}

func (s *Server) resumeRun(w http.ResponseWriter, r *http.Request) error {
	c, err := s.continuity()
	if err != nil {
		return err
	}
	run, err := c.Resume(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, run)
	return nil
}

func (s *Server) resumeSession(w http.ResponseWriter, r *http.Request) error {
	c, err := s.continuity()
	if err != nil {
		return err
	}
	run, err := c.ResumeSession(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, run)
	return nil
}
