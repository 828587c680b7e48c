package clikit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"lab/internal/conv"
	"lab/internal/tmux"
)

// What both adapters read of a CLI process lab did not start, from /proc:
// its environment, when it started, what it has open, and the tmux pane
// it runs in. Linux only, as lab is; another user's process answers with
// permission errors, which callers turn into a read-only session.

// Pids lists the processes /proc shows, in no particular order.
func Pids() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid > 0 {
			out = append(out, pid)
		}
	}
	return out
}

// ProcessArgs is the process's command line, argv[0] first.
func ProcessArgs(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return nil, err
	}
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil, nil // a kernel thread, or a zombie
	}
	return strings.Split(s, "\x00"), nil
}

// ProcessExe is the path of the binary the process runs ("" when it
// cannot be read).
func ProcessExe(pid int) string {
	p, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	return strings.TrimSuffix(p, " (deleted)")
}

// ProcessCwd is the process's working directory ("" when it cannot be
// read).
func ProcessCwd(pid int) string {
	p, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	return p
}

// ProcessEnv reads the environment the process started with.
func ProcessEnv(pid int) (map[string]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(b), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			env[k] = v
		}
	}
	return env, nil
}

// OpenFiles lists the paths of the regular files the process has open
// (sockets, pipes and devices are left out).
func OpenFiles(pid int) ([]string, error) {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		p, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/dev/") {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// ProcStart is the process's start time in clock ticks since boot (field
// 22 of /proc/<pid>/stat), which tells a process from a later one that
// got its pid.
func ProcStart(pid int) (string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false
	}
	// The command name (field 2) is parenthesised and may hold spaces;
	// count fields after its closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return "", false
	}
	return f[19], true
}

// Alive reports whether process pid still runs and, when procStart is
// known, is the process that started then (not a later one with its pid).
func Alive(pid int, procStart string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if procStart == "" {
		return true
	}
	start, ok := ProcStart(pid)
	return !ok || start == procStart
}

// ErrNotInTmux says a CLI process does not run in a tmux pane.
var ErrNotInTmux = errors.New("not running in tmux")

// LocatePane finds the tmux pane process pid runs in: the socket from
// its TMUX variable ("socket,server-pid,index"), the pane from TMUX_PANE,
// else from pane, what the CLI itself recorded (session names the tmux
// session, for display). The pane is not verified to host the process
// (tmux.Server.PaneHosts does that). Returns ErrNotInTmux when the
// process is not in tmux, another error when its environment cannot be
// read (another user's process).
func LocatePane(pid int, session, pane string) (conv.TmuxPane, error) {
	loc := conv.TmuxPane{Session: session, Pane: pane}
	env, err := ProcessEnv(pid)
	if err != nil {
		if pane == "" {
			return loc, ErrNotInTmux
		}
		return loc, fmt.Errorf("cannot read the environment of process %d: %w", pid, err)
	}
	tm := env["TMUX"]
	if tm == "" {
		return loc, ErrNotInTmux
	}
	sock, _, _ := strings.Cut(tm, ",")
	if !filepath.IsAbs(sock) {
		return loc, fmt.Errorf("process %d has an unreadable TMUX variable %q", pid, tm)
	}
	loc.Socket = sock
	if p := env["TMUX_PANE"]; tmux.ValidPaneID(p) {
		loc.Pane = p
	}
	if !tmux.ValidPaneID(loc.Pane) {
		return loc, fmt.Errorf("process %d runs in tmux but its pane is not known", pid)
	}
	return loc, nil
}

// ExternalPane fills x's terminal: its pane when the process runs in
// tmux, else why lab can only follow it (x.ReadOnly).
func ExternalPane(x *conv.ExternalSession, session, pane string) {
	loc, err := LocatePane(x.PID, session, pane)
	switch {
	case errors.Is(err, ErrNotInTmux):
		x.ReadOnly = "it does not run in tmux"
	case err != nil:
		x.ReadOnly = "lab cannot reach its terminal: " + err.Error()
	default:
		x.Tmux = &loc
	}
}
