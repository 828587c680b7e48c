package httpapi

import (
	"net/http"
	"strings"

	"lab/internal/conv"
)

// apiFunc is a handler that returns its error instead of writing it, so
// every failure reaches the client through writeError.
type apiFunc func(w http.ResponseWriter, r *http.Request) error

type route struct {
	pattern string
	h       apiFunc
}

// authedRoutes are every route that needs a login session or a bearer
// token. The tests walk this list, so a route added here is checked.
func (s *Server) authedRoutes() []route {
	return []route{
		{"GET /api/v1/providers", s.listProviders},
		{"GET /api/v1/runs", s.listRuns},
		{"POST /api/v1/runs", s.startRun},
		{"POST /api/v1/runs/{id}/stop", s.stopRun},
		{"POST /api/v1/runs/archive", s.archiveRuns(true)},
		{"POST /api/v1/runs/unarchive", s.archiveRuns(false)},
		{"POST /api/v1/runs/stop-idle", s.stopIdle},
		{"POST /api/v1/runs/attach", s.attach},
		{"POST /api/v1/runs/{id}/resume", s.resumeRun},
		{"GET /api/v1/external-sessions", s.listExternal},
		{"POST /api/v1/sessions/{id}/resume", s.resumeSession},
		{"GET /api/v1/runs/{id}", s.getRun},
		{"GET /api/v1/runs/{id}/messages", s.runMessages},
		{"POST /api/v1/uploads", s.upload(true)},
		{"POST /api/v1/runs/{id}/uploads", s.upload(false)},
		{"GET /api/v1/runs/{id}/attachments/{seq}/{n}", s.image(false)},
		{"GET /api/v1/sessions/{id}/attachments/{seq}/{n}", s.image(true)},
		{"POST /api/v1/runs/{id}/reply", s.idempotent(s.reply)},
		{"POST /api/v1/runs/{id}/interrupt", s.interrupt},
		{"POST /api/v1/runs/{id}/answer", s.idempotent(s.answer)},
		{"POST /api/v1/runs/{id}/seen", s.seen},
		{"GET /api/v1/runs/{id}/terminal", s.terminal},
		{"POST /api/v1/runs/{id}/terminal/input", s.terminalInput},
		{"GET /api/v1/runs/{id}/commands", s.runCommands},
		{"POST /api/v1/runs/{id}/command", s.runCommand},
		{"POST /api/v1/runs/{id}/mode", s.setMode},
		{"POST /api/v1/runs/{id}/model", s.setModel},
		{"GET /api/v1/runs/{id}/changes", s.changesAPI(s.runChanges)},
		{"GET /api/v1/runs/{id}/changes/diff", s.changesAPI(s.runDiff)},
		{"GET /api/v1/runs/{id}/file", s.changesAPI(s.runFile)},
		{"POST /api/v1/runs/{id}/worktree/commit", s.changesAPI(s.commitWorktree)},
		{"POST /api/v1/runs/{id}/worktree/remove", s.changesAPI(s.removeWorktree)},
		{"GET /api/v1/sessions/{id}/changes", s.changesAPI(s.sessionChanges)},
		{"GET /api/v1/sessions/{id}/file", s.changesAPI(s.sessionFile)},
		{"GET /api/v1/sessions", s.listSessions},
		{"GET /api/v1/sessions/{id}", s.getSession},
		{"GET /api/v1/sessions/{id}/messages", s.sessionMessages},
		{"GET /api/v1/demo/scenarios", s.demoScenarios},
		{"GET /api/v1/folders", s.listFolders},
		{"GET /api/v1/events", s.events},
		{"GET /api/v1/push/key", s.pushKey},
		{"GET /api/v1/push/devices", s.pushDevices},
		{"POST /api/v1/push/devices", s.pushSubscribe},
		{"POST /api/v1/push/devices/{id}", s.pushUpdate},
		{"DELETE /api/v1/push/devices/{id}", s.pushUnsubscribe},
		{"POST /api/v1/push/devices/{id}/test", s.pushTest},
		{"POST /api/v1/push/presence", s.pushPresence},
		{"POST /api/v1/auth/logout", s.logout},
		{"GET /api/v1/peers", s.listPeers},
		{"POST /api/v1/peers", s.addPeer},
		{"DELETE /api/v1/peers/{name}", s.removePeer},
	}
}

// routes builds the whole handler; the middleware order is visible here.
// observe is outermost so it sees the status of everything, including
// panics and auth failures, and the pattern the mux matched.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	// Outside auth: probes, metrics, and the steps that lead to a login.
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("GET /readyz", s.api(s.readyz))
	mux.Handle("GET /metrics", s.metricsHandler())
	mux.Handle("GET /api/v1/auth/status", s.api(s.authStatus))
	mux.Handle("POST /api/v1/auth/setup", s.api(s.setup))
	mux.Handle("POST /api/v1/auth/login", s.api(s.login))
	// A notification's answer carries its own single-use credential.
	mux.Handle("POST /api/v1/push/act", s.api(s.pushAct))

	for _, rt := range s.authedRoutes() {
		mux.Handle(rt.pattern, s.api(s.authed(rt.h)))
	}

	// Unknown API paths get a JSON 404/405, never the web app's index.html.
	mux.Handle("/api/", s.api(s.noRoute(mux)))
	mux.Handle("/", s.ui())

	// A peer's runs and sessions, whatever the endpoint, are relayed
	// before the mux (machines.go); the relay checks auth itself.
	return s.observe(s.hostGuard(s.cfg.AllowedHosts, securityHeaders(s.machines(mux))))
}

// api adapts an apiFunc to http.Handler.
func (s *Server) api(h apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// noRoute answers a path under /api/ that no pattern matched for this
// method: 405 with Allow when another method would match, else 404.
func (s *Server) noRoute(mux *http.ServeMux) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/api/" && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			return &statusError{status: http.StatusMethodNotAllowed, msg: "method " + r.Method + " not allowed here"}
		}
		return conv.Errorf(conv.ENotFound, "no API endpoint %s", r.URL.Path)
	}
}

// ui serves the web app for GET and HEAD. The app itself is public: it is
// the login page too; everything it shows comes from the authed API.
func (s *Server) ui() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.writeError(w, r, &statusError{status: http.StatusMethodNotAllowed, msg: "method " + r.Method + " not allowed here"})
			return
		}
		if s.cfg.UI == nil {
			s.writeError(w, r, conv.Errorf(conv.ENotFound, "no web app is built into this server"))
			return
		}
		s.cfg.UI.ServeHTTP(w, r)
	})
}

// securityHeaders are set on every response. The app has buttons that act
// on runs, so it must never be framed by another site.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
