package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads a comma-separated list of proxy addresses and
// networks ("127.0.0.1,::1,10.0.0.0/8"): a bare address is that one host.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("trusted proxy %q is neither an IP address nor a CIDR network", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// clientAddr is the address a request came from, for rate limits and
// logs: the connection's peer, unless that peer is a trusted proxy; then
// X-Forwarded-For is read from the right (each proxy appends the address
// it was reached from) past every trusted proxy, and the first address
// that is not one is the client. Entries left of it were written by the
// client itself and are never believed. With no trusted proxies the
// header is ignored altogether.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	addr := peerAddr(r)
	if !s.trustedProxy(addr) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(hops[i])
		if !ok {
			// A proxy we trust wrote something unreadable: the last
			// address we could vouch for is the best we have.
			return addr
		}
		addr = hop
		if !s.trustedProxy(addr) {
			return addr
		}
	}
	return addr
}

func (s *Server) trustedProxy(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end.
func peerAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, _ := netip.ParseAddr(r.RemoteAddr)
		return a.Unmap()
	}
	return ap.Addr().Unmap()
}

// parseHop reads one X-Forwarded-For entry: an address, possibly with a
// port, as some proxies write it.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.WithZone("").Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(host); err == nil {
			return a.WithZone("").Unmap(), true
		}
	}
	return netip.Addr{}, false
}

// limitKey is what one client's attempts are counted under: an IPv4
// address, or an IPv6 /64 — the block one subscriber is given, within
// which an attacker can pick a fresh address for every attempt.
func limitKey(a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
