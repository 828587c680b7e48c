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

// ExternalList is the body of GET /api/v1/external-sessions: every
// machine's, with the machines as RunList has them.
type ExternalList struct {
	Sessions []conv.ExternalSession `json:"sessions"`
	Machines []conv.Machine         `json:"machines"`
}

type attachRequest struct {
	Provider string `json:"provider,omitempty"`
	PID      int    `json:"pid"`
	// Machine attaches on that machine (a peer) instead of this one.
	Machine string `json:"machine,omitempty"`
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
	for i := range list {
		list[i].Machine = s.cfg.Machine
	}
	machines := []conv.Machine{s.localMachine()}
	if ps := s.peersFor(r); ps != nil {
		theirs, ms := ps.External(r.Context())
		list, machines = append(list, theirs...), append(machines, ms...)
	}
	if list == nil {
		list = []conv.ExternalSession{}
	}
	writeJSON(w, http.StatusOK, ExternalList{list, machines})
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
	if s.elsewhere(req.Machine) {
		peer := req.Machine
		req.Machine = ""
		return s.relayBody(w, r, peer, "/api/v1/runs/attach", req)
	}
	run, err := c.Attach(r.Context(), req.Provider, req.PID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.stampRun(run))
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
	writeJSON(w, http.StatusCreated, s.stampRun(run))
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
	writeJSON(w, http.StatusCreated, s.stampRun(run))
	return nil
}
