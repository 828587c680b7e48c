package httpapi

import (
	"context"
	"errors"
	"net/http"
	"runtime/debug"
	"time"

	"lab/internal/conv"
)

// healthz: the process serves requests. It checks nothing else, so a
// slow dependency never gets lab restarted.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz: lab can do its work: not draining, the database answers, and
// the caller's extra check (Config.Ready) passes. 503 otherwise.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	if s.draining.Load() {
		return conv.Errorf(conv.EUnavailable, "shutting down")
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, err := s.store.HasPassword(ctx); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "database unavailable")
	}
	if s.cfg.Ready != nil {
		if err := s.cfg.Ready(ctx); err != nil {
			msg := "not ready"
			var ce *conv.Error
			if errors.As(err, &ce) {
				msg += ": " + ce.Message
			}
			return conv.Wrap(conv.EUnavailable, err, msg)
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}

func stack() string { return string(debug.Stack()) }
