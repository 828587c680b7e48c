// Package netns gives a CLI a private network namespace with only
// loopback, shared with a listener of the calling process. Tests (and the
// demo) run the Codex CLI there: it then cannot reach the internet (it
// looks up a few public host names at start even when pointed at a local
// model), yet it reaches the scripted model served by the test process.
//
// How: a holder process (`unshare -n`, which brings loopback up and then
// waits on its stdin) owns the namespace. Listen switches one locked OS
// thread into that namespace just long enough to open a socket (a socket
// stays in the namespace it was created in), so the caller's own goroutines
// serve connections made inside it. Wrap prefixes a command line with
// nsenter, so a process started anywhere (a tmux pane) joins the
// namespace. Linux only; needs the privilege to create network namespaces
// (root, as on the project's machine).
package netns

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// NS is a private network namespace with loopback up. Close ends it once
// every process that entered it has exited.
type NS struct {
	holder *exec.Cmd
	stdin  io.WriteCloser
	path   string // /proc/<holder pid>/ns/net

	once sync.Once
	err  error
}

// holderScript brings loopback up, says so, and keeps the namespace alive
// until its stdin closes (the parent closed it or died).
const holderScript = `ip link set lo up && echo ready && exec cat >/dev/null`

// New creates a namespace. It fails with a clear error when the machine
// does not allow it (unshare or ip missing, not privileged).
func New() (*NS, error) {
	for _, tool := range []string{"unshare", "nsenter", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("netns: %s not found: %w", tool, err)
		}
	}
	cmd := exec.Command("unshare", "-n", "--", "sh", "-c", holderScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("netns: unshare: %w", err)
	}
	ready := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "ready" {
			err = fmt.Errorf("unexpected %q", line)
		}
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(30 * time.Second):
		err = errors.New("timed out")
	}
	if err != nil {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("netns: namespace holder did not come up: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return &NS{holder: cmd, stdin: in, path: fmt.Sprintf("/proc/%d/ns/net", cmd.Process.Pid)}, nil
}

// Path is the namespace's handle in /proc, as nsenter --net takes it.
func (ns *NS) Path() string { return ns.path }

// Wrap returns argv prefixed so that it runs inside the namespace.
func (ns *NS) Wrap(argv []string) []string {
	return append([]string{"nsenter", "--net=" + ns.path, "--"}, argv...)
}

// Listen opens a listener inside the namespace (network and address as
// for net.Listen, e.g. "tcp", "127.0.0.1:0"). Connections are accepted by
// the caller's process as usual.
func (ns *NS) Listen(network, address string) (net.Listener, error) {
	target, err := os.Open(ns.path)
	if err != nil {
		return nil, fmt.Errorf("netns: %w", err)
	}
	defer target.Close()
	// The thread switches namespaces, so nothing else may run on it.
	runtime.LockOSThread()
	self, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("netns: %w", err)
	}
	defer self.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("netns: enter: %w", err)
	}
	ln, lerr := net.Listen(network, address)
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		// The thread is stuck in the namespace: leave it locked, so the
		// runtime retires it with this goroutine instead of reusing it.
		if ln != nil {
			ln.Close()
		}
		return nil, fmt.Errorf("netns: leave: %w", err)
	}
	runtime.UnlockOSThread()
	if lerr != nil {
		return nil, fmt.Errorf("netns: %w", lerr)
	}
	return ln, nil
}

// Close lets the holder exit. The namespace itself lives on while a
// process that entered it (or a listener opened in it) remains.
func (ns *NS) Close() error {
	ns.once.Do(func() {
		ns.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- ns.holder.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			ns.holder.Process.Kill()
			<-done
		}
	})
	return ns.err
}
