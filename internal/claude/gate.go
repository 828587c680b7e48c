package claude

import (
	"path/filepath"
	"strings"

	"lab/internal/clikit"
)

// The folder-trust screen the CLI shows at start-up in a folder its
// ~/.claude.json does not mark trusted, as seen on 2.1.328:
//
//	 Accessing workspace:
//	 /home/me/project
//	 Quick safety check: Is this a project you created or one you trust? …
//	 ❯ No, exit
//	   Yes, I trust this folder
//	 Enter to confirm · Esc to cancel
//
// lab marks a run's folder trusted before starting it, but a CLI exiting
// at that moment rewrites the file and can drop the entry; then the run
// would wait here. The operator already chose the folder, so lab accepts
// the screen, one checked key at a time.

const (
	trustAccess = "Accessing workspace:"
	trustYes    = "Yes, I trust this folder"
	trustNo     = "No, exit"
)

// trustGate returns the next key towards accepting the trust screen for
// cwd ("Down" onto the Yes row, then "Enter"), or false when the pane does
// not show that screen for that folder.
func trustGate(capture, cwd string) (string, bool) {
	lines := strings.Split(capture, "\n")
	at := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == trustAccess {
			at = i
		}
	}
	if at < 0 || !strings.Contains(clikit.Squash(capture), clikit.Squash("Is this a project you created or one you trust?")) {
		return "", false
	}
	var folder string
	for _, l := range lines[at+1:] {
		if t := strings.TrimSpace(l); t != "" {
			folder = t
			break
		}
	}
	if !sameFolder(folder, cwd) {
		return "", false
	}
	var onYes, onNo, seenYes bool
	for _, l := range lines[at+1:] {
		t := strings.TrimSpace(l)
		cursor := strings.HasPrefix(t, cursorGlyph)
		label := strings.TrimSpace(strings.TrimPrefix(t, cursorGlyph))
		switch label {
		case trustYes:
			seenYes, onYes = true, cursor
		case trustNo:
			onNo = cursor
		}
	}
	switch {
	case seenYes && onYes:
		return "Enter", true
	case seenYes && onNo:
		return "Down", true
	}
	return "", false
}

// sameFolder compares a folder as the CLI shows it with cwd, resolving
// symlinks on both sides.
func sameFolder(shown, cwd string) bool {
	if shown == "" || cwd == "" {
		return false
	}
	if shown == cwd {
		return true
	}
	a, err1 := filepath.EvalSymlinks(shown)
	b, err2 := filepath.EvalSymlinks(cwd)
	return err1 == nil && err2 == nil && a == b
}
