package clikit

import (
	"strings"
	"unicode"
)

// Squash drops all white space, so text compares equal however the TUI
// wrapped it across lines.
func Squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// SameText reports whether a shown text equals want once line wrapping is
// undone.
func SameText(shown, want string) bool { return Squash(shown) == Squash(want) }

// RowShows reports whether a picker row whose first line shows label and
// whose continuation lines are more shows exactly want, possibly wrapped
// onto those lines. Continuations past want (a description under the
// label) do not count against it.
func RowShows(label string, more []string, want string) bool {
	w := Squash(want)
	got := Squash(label)
	if got == w {
		return true
	}
	for _, m := range more {
		got += Squash(m)
		if got == w {
			return true
		}
		if len(got) > len(w) {
			return false
		}
	}
	return false
}
