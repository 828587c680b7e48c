package netns

import (
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A server of this process, listening inside the namespace, is reachable
// from a command wrapped into it, and not from outside; the namespace has
// no route beyond loopback.
func TestListenInsideWrapReaches(t *testing.T) {
	ns, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Close()
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "inside-ok") })}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"

	// curl is not everywhere; bash's /dev/tcp is enough for a GET.
	script := `exec 3<>/dev/tcp/` + strings.Replace(ln.Addr().String(), ":", "/", 1) + ` && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && cat <&3`
	inside := func(argv ...string) ([]byte, error) {
		w := ns.Wrap(argv)
		return exec.Command(w[0], w[1:]...).CombinedOutput()
	}
	out, err := inside("bash", "-c", script)
	if err != nil || !strings.Contains(string(out), "inside-ok") {
		t.Fatalf("inside the namespace: got %q, %v; want the server's reply", out, err)
	}
	out, err = inside("ip", "-o", "route", "show")
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("routes inside the namespace: got %q, %v; want none (loopback only)", out, err)
	}
	c := http.Client{Timeout: 2 * time.Second}
	if resp, err := c.Get(url); err == nil {
		resp.Body.Close()
		t.Fatalf("the listener answered from outside the namespace; want it unreachable there")
	}
	// The listener really is a TCP listener on loopback.
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		t.Fatalf("got address %v; want a loopback TCP address", ln.Addr())
	}
}
