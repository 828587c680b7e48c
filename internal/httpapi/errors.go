package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"lab/internal/conv"
)

// statusByKind is the one table from error kinds to HTTP statuses.
var statusByKind = map[conv.ErrorKind]int{
	conv.EInvalid:      http.StatusBadRequest,
	conv.EUnauthorized: http.StatusUnauthorized,
	conv.EForbidden:    http.StatusForbidden,
	conv.ENotFound:     http.StatusNotFound,
	conv.EConflict:     http.StatusConflict,
	conv.ETooLarge:     http.StatusRequestEntityTooLarge,
	conv.EUnavailable:  http.StatusServiceUnavailable,
	conv.EInternal:     http.StatusInternalServerError,
}

// statusError carries the few answers conv has no kind for: 405 and 429
// (conv.ErrorKind lacks a "too many requests" kind).
type statusError struct {
	status     int
	msg        string
	retryAfter time.Duration // 429 only
}

func (e *statusError) Error() string { return e.msg }

// statusClientClosed is logged and counted when the client went away
// before an answer (nginx's convention); nobody receives it.
const statusClientClosed = 499

type errorBody struct {
	Error string `json:"error"`
}

// writeError is the single way an error reaches a client: a status from
// statusByKind and {"error": message}. The message is the conv.Error's
// operator-facing text; details of 5xx errors go to the log only.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var se *statusError
	if errors.As(err, &se) {
		if se.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ceilSeconds(se.retryAfter)))
		}
		writeJSON(w, se.status, errorBody{se.msg})
		return
	}
	if r.Context().Err() != nil && errors.Is(err, context.Canceled) {
		s.log.Debug("client went away", "method", r.Method, "path", r.URL.Path, "err", err)
		w.WriteHeader(statusClientClosed)
		return
	}
	kind := conv.KindOf(err)
	status, ok := statusByKind[kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	level := slog.LevelDebug
	switch {
	case status == http.StatusServiceUnavailable:
		level = slog.LevelWarn
	case status >= 500:
		level = slog.LevelError
	}
	s.log.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "status", status, "kind", kind, "err", err)
	writeJSON(w, status, errorBody{conv.MessageOf(err)})
}

// writeJSON writes v as the response body. Encoding these plain types
// cannot fail; a write error means the client left.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
