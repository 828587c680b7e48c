package tmux

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PaneHosts checks that pane (an id such as "%3") hosts process pid: the
// pane's own process is pid or one of its ancestors (a shell that started
// it). Pane ids are reused once a pane closes, so lab checks this before
// it types into a pane on a server it did not start.
func (s *Server) PaneHosts(ctx context.Context, pane string, pid int) error {
	if !ValidPaneID(pane) {
		return fmt.Errorf("tmux: %q is not a pane id", pane)
	}
	pp, err := s.PanePID(ctx, pane)
	if err != nil {
		return fmt.Errorf("pane %s on %s cannot be reached: %w", pane, s.socket, err)
	}
	if !DescendsFrom(pid, pp) {
		return fmt.Errorf("pane %s on %s no longer runs process %d", pane, s.socket, pid)
	}
	return nil
}

// PaneSession names a session that holds pane, for display.
func (s *Server) PaneSession(ctx context.Context, pane string) (string, error) {
	if !ValidPaneID(pane) {
		return "", fmt.Errorf("tmux: %q is not a pane id", pane)
	}
	out, err := s.cmd(ctx, nil, "display-message", "-p", "-t", pane, "#{session_name}")
	return strings.TrimSpace(out), err
}

// ValidPaneID reports whether p is a tmux pane id: "%" and digits.
func ValidPaneID(p string) bool {
	if len(p) < 2 || p[0] != '%' {
		return false
	}
	_, err := strconv.Atoi(p[1:])
	return err == nil
}

// DescendsFrom reports whether pid is ancestor or one of its descendants,
// walking parent pids in /proc.
func DescendsFrom(pid, ancestor int) bool {
	for range 64 {
		if pid == ancestor {
			return true
		}
		if pid <= 1 {
			return false
		}
		ppid, ok := parentPID(pid)
		if !ok {
			return false
		}
		pid = ppid
	}
	return false
}

// parentPID reads field 4 of /proc/<pid>/stat; the command name before it
// is parenthesised and may hold spaces.
func parentPID(pid int) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}
