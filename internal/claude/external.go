package claude

import (
	"strings"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// LocatePane finds the tmux pane the registry entry's process runs in
// (clikit.LocatePane). The registry records session:@window.%pane but not
// the socket, which comes from the process's own TMUX variable; the
// registry's pane stands in when TMUX_PANE is missing.
func LocatePane(e RegistryEntry) (conv.TmuxPane, error) {
	session, pane := registryPane(e.Tmux)
	return clikit.LocatePane(e.PID, session, pane)
}

// registryPane splits the registry's session:@window.%pane.
func registryPane(tm string) (session, pane string) {
	if i := strings.LastIndex(tm, ":@"); i >= 0 {
		session = tm[:i]
		if j := strings.LastIndex(tm, ".%"); j > i {
			pane = tm[j+1:]
		}
	}
	return session, pane
}
