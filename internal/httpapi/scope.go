package httpapi

import (
	"strings"

	"lab/internal/store"
)

// relayScopePaths are what a relay token (store.ScopeRelay, the one a hub
// holds) may reach: what a hub relays of this lab's runs. Nothing that
// manages lab — tokens, peers, push devices, the login — is among them,
// and a route added later is refused until it is listed here.
var relayScopePaths = []string{
	"/api/v1/runs", "/api/v1/sessions", "/api/v1/external-sessions",
	"/api/v1/providers", "/api/v1/folders", "/api/v1/events", "/api/v1/demo/",
}

// scopeAllows reports whether a token of scope may use the route of mux
// pattern ("POST /api/v1/runs/{id}/answer"). Relayed requests (a hub's
// own relay, relayPattern) are never a relay token's.
func scopeAllows(scope, pattern string) bool {
	if scope == "" {
		return true
	}
	if scope != store.ScopeRelay {
		return false
	}
	method, path, _ := strings.Cut(pattern, " ")
	if method == "" || method == strings.Fields(relayPattern)[0] {
		return false
	}
	for _, p := range relayScopePaths {
		if path == p || strings.HasPrefix(path, strings.TrimSuffix(p, "/")+"/") {
			return true
		}
	}
	return false
}
