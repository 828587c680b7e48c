package peer

import (
	"net"
	"net/url"
	"strings"

	"lab/internal/conv"
)

// CheckURL parses a peer's address: https, or plain http to a loopback
// host, or to any host when allowHTTP says the operator allowed it (a
// private network they trust). No user, query or fragment; a path is kept
// (a lab behind a proxy under a prefix), without its trailing slash.
// conv.EInvalid with the reason.
func CheckURL(raw string, allowHTTP bool) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, conv.Errorf(conv.EInvalid, "peer URL %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return nil, conv.Errorf(conv.EInvalid, "peer URL %q: want https://host[:port][/path]", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, conv.Errorf(conv.EInvalid, "peer URL %q: no user, query or fragment, please", raw)
	}
	if u.Scheme == "http" && !allowHTTP && !loopbackHost(u.Hostname()) {
		return nil, conv.Errorf(conv.EInvalid,
			"peer URL %q is plain http to a host that is not loopback: the token would cross the network in clear; use https, or allow plain http to this host explicitly", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// loopbackHost reports whether host names this machine: localhost or a
// loopback address.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
