package httpapi

import (
	"net/http/httptest"
	"testing"
)

func TestClientAddr(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted string
		remote  string
		xff     []string // X-Forwarded-For header lines
		want    string   // the limit key
	}{
		{"no proxy trusted: the header is ignored", "", "192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"},
		{"untrusted peer: the header is ignored", "127.0.0.1", "192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"},
		{"trusted proxy names the client", "127.0.0.1", "127.0.0.1:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"trusted proxy, no header: the proxy is the client", "127.0.0.1", "127.0.0.1:5000", nil, "127.0.0.1"},
		{"what the client wrote left of it is not believed", "127.0.0.1", "127.0.0.1:5000", []string{"10.9.9.9, 198.51.100.7"}, "198.51.100.7"},
		{"a chain of trusted proxies", "127.0.0.1,10.0.0.0/8", "127.0.0.1:5000", []string{"198.51.100.7, 10.1.2.3"}, "198.51.100.7"},
		{"header split over lines", "127.0.0.1,10.0.0.0/8", "127.0.0.1:5000", []string{"6.6.6.6", "198.51.100.7, 10.1.2.3"}, "198.51.100.7"},
		{"every hop trusted: the leftmost", "127.0.0.1,10.0.0.0/8", "127.0.0.1:5000", []string{"10.4.4.4, 10.1.2.3"}, "10.4.4.4"},
		{"an entry with a port", "127.0.0.1", "127.0.0.1:5000", []string{"198.51.100.7:4711"}, "198.51.100.7"},
		{"garbage from the trusted proxy: the proxy", "127.0.0.1", "127.0.0.1:5000", []string{"198.51.100.7, nonsense"}, "127.0.0.1"},
		{"garbage further left is never reached", "127.0.0.1", "127.0.0.1:5000", []string{"nonsense, 198.51.100.7"}, "198.51.100.7"},
		{"IPv6 clients are counted by /64", "127.0.0.1", "127.0.0.1:5000", []string{"2001:db8:1:2:aaaa::1"}, "2001:db8:1:2::/64"},
		{"IPv6 peer", "", "[2001:db8:1:2:bbbb::9]:443", nil, "2001:db8:1:2::/64"},
		{"IPv4 mapped into IPv6", "::1", "[::1]:5000", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
		{"a trusted IPv6 proxy by its address", "::1", "[::1]:5000", []string{"198.51.100.7"}, "198.51.100.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxies, err := ParseTrustedProxies(tc.trusted)
			if err != nil {
				t.Fatal(err)
			}
			s := &Server{cfg: Config{TrustedProxies: proxies}}
			r := httptest.NewRequest("POST", "/api/v1/auth/login", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := limitKey(s.clientAddr(r)); got != tc.want {
				t.Fatalf("got %s; want %s", got, tc.want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies(" 127.0.0.1, ::1,10.1.2.3/8 ,,fd7a:115c:a1e0::/48")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"127.0.0.1/32", "::1/128", "10.0.0.0/8", "fd7a:115c:a1e0::/48"}
	if len(got) != len(want) {
		t.Fatalf("got %v; want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("got %v; want %v", got, want)
		}
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "fe80::1%eth0", "1.2.3"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("%q: got no error; want one", bad)
		}
	}
}
