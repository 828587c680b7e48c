package httpapi

import (
	"context"
	"net/http"

	"lab/internal/conv"
)

// Steering is what the API needs to steer a live run between turns: its
// slash commands, and switching its permission mode and model. The Runs
// the server is given provide it when they can; else these endpoints
// answer 503. Errors as for Runs: EInvalid for a command, mode or model
// the run's CLI does not take, EConflict when it cannot be done now (a
// dialog waits, the agent works, lab refuses the command, the pane did not
// confirm).
type Steering interface {
	Commands(ctx context.Context, id string) ([]conv.Command, error)
	RunCommand(ctx context.Context, id string, req conv.CommandRequest) error
	SetMode(ctx context.Context, id, mode string) error
	SetModel(ctx context.Context, id, model string) error
}

// CommandList is the body of GET /api/v1/runs/{id}/commands.
type CommandList struct {
	Commands []conv.Command `json:"commands"`
}

func (s *Server) steering() (Steering, error) {
	st, ok := s.cfg.Runs.(Steering)
	if !ok {
		return nil, conv.Errorf(conv.EUnavailable, "this server cannot steer runs")
	}
	return st, nil
}

func (s *Server) runCommands(w http.ResponseWriter, r *http.Request) error {
	st, err := s.steering()
	if err != nil {
		return err
	}
	list, err := st.Commands(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, CommandList{list})
	return nil
}

func (s *Server) runCommand(w http.ResponseWriter, r *http.Request) error {
	st, err := s.steering()
	if err != nil {
		return err
	}
	var req conv.CommandRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if err := st.RunCommand(r.Context(), r.PathValue("id"), req); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) setMode(w http.ResponseWriter, r *http.Request) error {
	var req conv.ModeRequest
	return s.steerTo(w, r, &req, "mode", func() string { return req.Mode }, Steering.SetMode)
}

func (s *Server) setModel(w http.ResponseWriter, r *http.Request) error {
	var req conv.ModelRequest
	return s.steerTo(w, r, &req, "model", func() string { return req.Model }, Steering.SetModel)
}

// steerTo decodes a switch request into req, checks that its target
// (named what) is given, and asks the run layer for the switch.
func (s *Server) steerTo(w http.ResponseWriter, r *http.Request, req any, what string, target func() string,
	to func(Steering, context.Context, string, string) error) error {
	st, err := s.steering()
	if err != nil {
		return err
	}
	if err := s.decode(w, r, req); err != nil {
		return err
	}
	if target() == "" {
		return conv.Errorf(conv.EInvalid, "%s is required", what)
	}
	if err := to(st, r.Context(), r.PathValue("id"), target()); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
