package netns

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The test binary plays lab's jail subcommand (when a jailed child runs
// it with netnsRole=jail) and the jailed CLI (netnsRole=client).
const netnsRole = "LAB_NETNS_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(netnsRole) {
	case "jail":
		os.Exit(jailMain(os.Args[1:]))
	case "client":
		os.Exit(clientMain())
	}
	os.Exit(m.Run())
}

// jailMain parses what Jail.Wrap passes after "jail", as lab's subcommand
// does, and runs Inside (or only brings loopback up for --probe).
func jailMain(args []string) int {
	if len(args) == 0 || args[0] != "jail" {
		fmt.Fprintln(os.Stderr, "want: jail …")
		return 2
	}
	fs := flag.NewFlagSet("jail", flag.ContinueOnError)
	port := fs.Int("port", 0, "")
	socket := fs.String("socket", "", "")
	probe := fs.Bool("probe", false, "")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *probe {
		if err := LoopbackUp(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	code, err := Inside(*port, *socket, fs.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return code
}

// clientMain is the jailed CLI: it must reach the model at the jail's port
// and nothing beyond loopback. It prints what it got.
func clientMain() int {
	resp, err := http.Get("http://127.0.0.1:" + os.Getenv("LAB_NETNS_PORT") + "/v1/responses")
	if err != nil {
		fmt.Println("model unreachable:", err)
		return 1
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("model said %s\n", body)
	// Any address beyond loopback has no route.
	if c, err := net.Dial("udp", "192.0.2.1:53"); err == nil {
		_, werr := c.Write([]byte("x"))
		c.Close()
		if werr == nil {
			fmt.Println("an outside address was reachable")
			return 1
		}
	}
	fmt.Println("outside unreachable")
	return 0
}

// A jailed command reaches the server behind the unix socket at the
// jail's loopback port, and nothing else; its exit status comes back.
func TestJailReachesOnlyTheSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "model.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello from "+r.URL.Path)
	})}
	go srv.Serve(ln)
	defer srv.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	self := []string{"env", netnsRole + "=jail", exe}
	j, err := ProbeJail(context.Background(), self, sock, 7788)
	if err != nil {
		t.Fatalf("this machine (root, as the project's) must allow a jail: %v", err)
	}
	if j.User != (os.Geteuid() != 0) {
		t.Errorf("jail %+v: a user namespace is for a normal user only", j)
	}
	argv := j.Wrap([]string{"env", netnsRole + "=client", "LAB_NETNS_PORT=7788", exe})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "model said hello from /v1/responses") || !strings.Contains(string(out), "outside unreachable") {
		t.Fatalf("jailed client: %v\n%s", err, out)
	}
	// The CLI's exit status is the jail's.
	argv = j.Wrap([]string{"sh", "-c", "exit 7"})
	err = exec.Command(argv[0], argv[1:]...).Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Fatalf("jailed exit 7: got %v", err)
	}
}

// A probe whose jail cannot start says why.
func TestProbeJailFailsClearly(t *testing.T) {
	_, err := ProbeJail(context.Background(), []string{"/nonexistent/lab"}, "/tmp/x.sock", 7788)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/lab") {
		t.Fatalf("got %v; want an error naming the command that failed", err)
	}
}
