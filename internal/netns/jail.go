package netns

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A Jail runs one CLI process in a network namespace of its own with only
// loopback, where one port reaches a unix socket outside: `lab demo` puts
// each Codex run in one, so the CLI reaches the scripted model and nothing
// else. Unlike NS it needs no listener opened inside the namespace, so
// the lab process needs no privilege to enter it: a unix socket is a file,
// reachable from any network namespace.
//
// Wrap builds the command line: unshare makes the namespace (as root a
// plain network namespace; otherwise inside a user namespace that maps the
// user to itself, which a normal user may create where the kernel allows
// it), then runs lab's own `jail` subcommand there (Inside), which brings
// loopback up, forwards the port to the socket, and runs the CLI as its
// child until it exits.

// Jail describes how to run a CLI jailed.
type Jail struct {
	// Self is the command line that runs lab itself (its jail
	// subcommand is appended).
	Self []string
	// Socket is the unix socket the port forwards to.
	Socket string
	// Port is the loopback port inside the namespace.
	Port int
	// User says a user namespace is needed too (lab is not root).
	User bool
}

// Wrap returns argv prefixed so that it runs jailed.
func (j Jail) Wrap(argv []string) []string {
	out := j.jail("--port", strconv.Itoa(j.Port), "--socket", j.Socket, "--")
	return append(out, argv...)
}

// jail is the command line that runs lab's jail subcommand with args in
// a new namespace.
func (j Jail) jail(args ...string) []string {
	out := []string{"unshare", "--net", "--"}
	if j.User {
		out = []string{"unshare", "--user", "--map-current-user", "--keep-caps", "--net", "--"}
	}
	out = append(out, j.Self...)
	out = append(out, "jail")
	return append(out, args...)
}

// ProbeJail finds how this process can jail a CLI: a plain network
// namespace as root, else one inside a user namespace. It runs the jail
// subcommand once (self jail --probe) and returns the Jail to use, or an
// error saying why neither works here.
func ProbeJail(ctx context.Context, self []string, socket string, port int) (Jail, error) {
	if _, err := exec.LookPath("unshare"); err != nil {
		return Jail{}, fmt.Errorf("unshare not found: %w", err)
	}
	j := Jail{Self: self, Socket: socket, Port: port, User: os.Geteuid() != 0}
	argv := j.jail("--probe")
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		return Jail{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
	}
	return j, nil
}

// LoopbackUp brings the namespace's loopback interface up (what `ip link
// set lo up` does), which needs CAP_NET_ADMIN in the namespace.
func LoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("netns: socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: lo flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: lo up: %w", err)
	}
	return nil
}

// Inside is the jail subcommand: in a fresh network namespace it brings
// loopback up, forwards 127.0.0.1:port to the unix socket, and runs argv
// with this process's terminal until it exits, passing on the signals
// that end it. It returns argv's exit code.
func Inside(port int, socket string, argv []string) (int, error) {
	if len(argv) == 0 {
		return 2, errors.New("netns: nothing to run")
	}
	if err := LoopbackUp(); err != nil {
		return 1, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return 1, fmt.Errorf("netns: listen: %w", err)
	}
	defer ln.Close()
	go forward(ln, socket)

	// The CLI gets no capabilities: those the user namespace granted this
	// process (to bring loopback up) stay here. Ambient capabilities are
	// per thread and the child is forked from this one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return 127, err
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), nil
	}
	return 0, err
}

// forward copies each connection to the listener to a new connection to
// the unix socket, both ways, until either side closes.
func forward(ln net.Listener, socket string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("unix", socket)
			if err != nil {
				return
			}
			defer u.Close()
			var wg sync.WaitGroup
			wg.Add(2)
			pipe := func(dst, src net.Conn) {
				defer wg.Done()
				io.Copy(dst, src)
				if cw, ok := dst.(interface{ CloseWrite() error }); ok {
					cw.CloseWrite()
				}
			}
			go pipe(u, c)
			go pipe(c, u)
			wg.Wait()
		}()
	}
}
