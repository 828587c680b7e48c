package httpapi

import (
	"strings"
	"testing"
)

func TestHostGuardRefusesUnknownHosts(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.AllowedHosts = []string{"localhost", "127.0.0.1", "::1"}
	}})
	for _, tc := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:8080", 200},
		{"localhost:8080", 200},
		{"LOCALHOST", 200},
		{"[::1]:8080", 200},
		{"evil.example:8080", 403},
		{"127.0.0.1.nip.example", 403},
	} {
		t.Run(tc.host, func(t *testing.T) {
			r := h.do(rq{method: "GET", path: "/api/v1/auth/status", host: tc.host})
			if r.status != tc.want {
				t.Fatalf("Host %s: got %d; want %d (%s)", tc.host, r.status, tc.want, r.body)
			}
			if tc.want == 403 && !strings.Contains(string(r.body), "does not answer to host") {
				t.Fatalf("got body %s; want the host named in the error", r.body)
			}
		})
	}
}

func TestHostGuardOffWhenNoHostsDeclared(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	if r := h.do(rq{method: "GET", path: "/api/v1/auth/status", host: "anything.example"}); r.status != 200 {
		t.Fatalf("got %d; want 200 with no allowed hosts configured", r.status)
	}
}
