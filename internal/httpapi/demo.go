package httpapi

import (
	"net/http"

	"lab/internal/conv"
)

// Scenario is one scripted conversation a demo server's model plays: a
// prompt containing Keyword starts it. PermissionMode is the mode it
// needs to behave as described, "" when any works.
type Scenario struct {
	Keyword        string `json:"keyword"`
	Summary        string `json:"summary"`
	PermissionMode string `json:"permission_mode,omitempty"`
}

// ScenarioList is the body of GET /api/v1/demo/scenarios.
type ScenarioList struct {
	Scenarios []Scenario `json:"scenarios"`
}

// demoScenarios: GET /api/v1/demo/scenarios lists what the demo's
// scripted model can play, so the new-run screen can offer it. A server
// that talks to a real model has none: 404.
func (s *Server) demoScenarios(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.Scenarios == nil {
		return conv.Errorf(conv.ENotFound, "this server is not a demo: it has no scripted scenarios")
	}
	writeJSON(w, http.StatusOK, ScenarioList{Scenarios: s.cfg.Scenarios})
	return nil
}
