package claude

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// PaneLocation is where a CLI process lab did not start runs in tmux: the
// operator's tmux server (its socket) and the pane id.
type PaneLocation struct {
	Socket  string `json:"socket"`
	Pane    string `json:"pane"`    // "%3"
	Session string `json:"session"` // the tmux session name, for display
}

// ErrNotInTmux says a CLI process does not run in a tmux pane.
var ErrNotInTmux = errors.New("not running in tmux")

// LocatePane finds the tmux pane the registry entry's process runs in. The
// registry records session:@window.%pane but not the socket, so the socket
// comes from the process's own TMUX variable ("socket,server-pid,index"
// in /proc/<pid>/environ), and the pane from TMUX_PANE or the registry.
// Returns ErrNotInTmux when the process is not in tmux, another error when
// its environment cannot be read (another user's process).
func LocatePane(e RegistryEntry) (PaneLocation, error) {
	var loc PaneLocation
	if e.Tmux != "" {
		if i := strings.LastIndex(e.Tmux, ":@"); i >= 0 {
			loc.Session = e.Tmux[:i]
			if j := strings.LastIndex(e.Tmux, ".%"); j > i {
				loc.Pane = e.Tmux[j+1:]
			}
		}
	}
	env, err := processEnv(e.PID)
	if err != nil {
		if e.Tmux == "" {
			return loc, ErrNotInTmux
		}
		return loc, fmt.Errorf("cannot read the environment of process %d: %w", e.PID, err)
	}
	tm := env["TMUX"]
	if tm == "" {
		return loc, ErrNotInTmux
	}
	sock, _, _ := strings.Cut(tm, ",")
	if !filepath.IsAbs(sock) {
		return loc, fmt.Errorf("process %d has an unreadable TMUX variable %q", e.PID, tm)
	}
	loc.Socket = sock
	if p := env["TMUX_PANE"]; validPaneID(p) {
		loc.Pane = p
	}
	if !validPaneID(loc.Pane) {
		return loc, fmt.Errorf("process %d runs in tmux but its pane is not known", e.PID)
	}
	return loc, nil
}

// validPaneID reports whether p is a tmux pane id ("%" and digits), the
// only target lab types into outside its own server.
func validPaneID(p string) bool {
	if len(p) < 2 || p[0] != '%' {
		return false
	}
	_, err := strconv.Atoi(p[1:])
	return err == nil
}

// processEnv reads /proc/<pid>/environ.
func processEnv(pid int) (map[string]string, error) {
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
