package fakeclaudeapi

import (
	"net/http"
)

// failure makes a scenario's requests fail the way the real API does when
// it is overloaded or broken, so tests can see how the CLI reports errors
// and retries.
type failure struct {
	// status is the HTTP status to answer; 0 hangs up without answering
	// (a dropped connection).
	status  int
	errType string // the error body's error.type
	message string
	// times is how many requests of one prompt fail before the scenario
	// answers normally; 0 fails every request.
	times int
}

var (
	failOverloaded = &failure{status: 529, errType: "overloaded_error", message: "Overloaded"}
	failAPIError   = &failure{status: http.StatusInternalServerError, errType: "api_error", message: "Internal server error"}
	failFlaky      = &failure{status: 529, errType: "overloaded_error", message: "Overloaded", times: 2}
	failHangup     = &failure{}
)

// shouldFail reports whether this request of the prompt fails, counting it.
func (s *Server) shouldFail(f *failure, prompt string) bool {
	if f == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed == nil {
		s.failed = map[string]int{}
	}
	if f.times > 0 && s.failed[prompt] >= f.times {
		return false
	}
	s.failed[prompt]++
	return true
}

// fail answers the request as f says.
func (f *failure) answer(w http.ResponseWriter) {
	if f.status == 0 {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.status)
	writeJSONBody(w, map[string]any{"type": "error", "error": map[string]any{"type": f.errType, "message": f.message}})
}
