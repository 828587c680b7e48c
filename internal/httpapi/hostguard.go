package httpapi

import (
	"net"
	"net/http"
	"strings"

	"lab/internal/conv"
)

// hostGuard refuses requests whose Host header is not one lab answers to.
// On a loopback listener this defeats DNS rebinding: a web page whose own
// name resolves to 127.0.0.1 still sends its own name as Host, so it cannot
// talk to lab through the victim's browser. An empty allowed list lets
// every host through (lab bound to the network with no declared names).
func (s *Server) hostGuard(allowed []string, next http.Handler) http.Handler {
	if len(allowed) == 0 {
		return next
	}
	set := make(map[string]bool, len(allowed))
	for _, h := range allowed {
		set[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.ToLower(strings.Trim(host, "[]"))
		if !set[host] {
			s.writeError(w, r, conv.Errorf(conv.EForbidden, "lab does not answer to host %q; add it with --allowed-hosts", host))
			return
		}
		next.ServeHTTP(w, r)
	})
}
