package codex

import "strings"

// The folder-trust screen the CLI shows at start in a git repository it
// does not know as trusted, as seen on 0.171.0:
//
//	  Folder access
//	  /home/me/project
//	  Trust this folder? Codex can read, edit, and run files here, …
//	› 1. Trust and continue
//	  2. Back to Agent Command Center
//	  enter continue · esc back
//
// lab runs a folder trusted (TrustArgs), so this shows only when that did
// not take; the operator already chose the folder, so lab accepts the
// screen, one checked key at a time.

const (
	trustTitle = "Folder access"
	trustAsk   = "Trust this folder?"
	trustYes   = "Trust and continue"
)

// trustGate returns the next key towards accepting the trust screen for
// cwd ("Up" onto the Trust row, then "Enter"), or false when the pane does
// not show that screen for that folder.
func trustGate(capture, cwd string) (string, bool) {
	lines := paneLines(capture)
	at := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == trustTitle {
			at = i
		}
	}
	if at < 0 || !strings.Contains(capture, trustAsk) {
		return "", false
	}
	folder := ""
	for _, l := range lines[at+1:] {
		if t := strings.TrimSpace(l); t != "" {
			folder = t
			break
		}
	}
	if folder != cwd {
		return "", false
	}
	rows, _ := parseRows(lines, at+1, true)
	for i, r := range rows {
		if !r.Cursor {
			continue
		}
		if strings.HasPrefix(r.Label, trustYes) {
			return "Enter", true
		}
		if i > 0 {
			return "Up", true
		}
	}
	return "", false
}
