package clikit

import (
	"strings"
	"unicode"
)

// ScreenKind says which picker a captured pane shows. Both TUIs ask
// questions and have a plan approved; each adapter adds its own kinds.
type ScreenKind string

// The pickers both TUIs show.
const (
	ScreenNone     ScreenKind = ""         // no picker recognised
	ScreenQuestion ScreenKind = "question" // one question of a question tool's call
	ScreenPlan     ScreenKind = "plan"     // the plan approval picker
)

// PaneLines splits a captured pane into lines without trailing white
// space.
func PaneLines(capture string) []string {
	lines := strings.Split(strings.ReplaceAll(capture, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return lines
}

// FindRow returns the first of a picker's rows that match accepts (the
// cursor's, the one showing a label), or nil.
func FindRow[R any](rows []R, match func(*R) bool) *R {
	for i := range rows {
		if match(&rows[i]) {
			return &rows[i]
		}
	}
	return nil
}
