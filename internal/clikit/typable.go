package clikit

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/runenames"

	"lab/internal/conv"
)

// This file finds the invisible characters of a reply and what each does
// where it stands, so an adapter can refuse, before any key, the ones its
// CLI would drop from the prompt (each adapter's typing.go holds what its
// CLI was seen to keep), and names them for the operator.

// Role is what an invisible character does where it stands.
type Role int

const (
	// RoleOther is any invisible character with no part in what follows:
	// a zero width space, soft hyphen, word joiner, byte order mark, a
	// stray variation selector, joiner or tag.
	RoleOther Role = iota
	// RoleBidi is an explicit bidirectional mark, embedding, override or
	// isolate.
	RoleBidi
	// RoleEmoji is part of a well-formed emoji sequence: a ZWJ between
	// two emoji, a presentation selector after an emoji or keycap base, the
	// tags of a subdivision flag.
	RoleEmoji
	// RoleJoiner is a ZWJ or ZWNJ after a letter (and its marks): how
	// Arabic and Indic scripts choose a letter's joined form.
	RoleJoiner
)

// Invisible is one invisible character of a text.
type Invisible struct {
	Rune   rune
	Offset int // in bytes
	Role   Role
	// Script is, for RoleJoiner, the script of the letter it follows
	// ("Arabic", "Devanagari"): a unicode.Scripts key.
	Script string
}

// rgiTagFlags are the subdivision flags Unicode recommends (RGI): black
// flag, these tags, cancel tag. No other tag sequence is an emoji.
var rgiTagFlags = []string{"gbeng", "gbsct", "gbwls"}

// Invisibles lists the invisible characters of text (IsInvisible) with
// their roles.
func Invisibles(text string) []Invisible {
	rs := []rune(text)
	offs := make([]int, 0, len(rs))
	for i := range text {
		offs = append(offs, i)
	}
	var out []Invisible
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !IsInvisible(r) {
			continue
		}
		inv := Invisible{Rune: r, Offset: offs[i], Role: RoleOther}
		switch {
		case IsBidiControl(r):
			inv.Role = RoleBidi
		case IsTag(r):
			if n := tagFlag(rs, i); n > 0 {
				for k := i; k < i+n; k++ {
					out = append(out, Invisible{Rune: rs[k], Offset: offs[k], Role: RoleEmoji})
				}
				i += n - 1
				continue
			}
		case r == ZWJ && emojiBefore(rs, i) && i+1 < len(rs) && IsPictographic(rs[i+1]):
			inv.Role = RoleEmoji
		case (r == VS15 || r == VS16) && i > 0 && IsPictographic(rs[i-1]):
			inv.Role = RoleEmoji
		case (r == VS15 || r == VS16) && i > 0 && isKeycapBase(rs[i-1]) && i+1 < len(rs) && rs[i+1] == Keycap:
			inv.Role = RoleEmoji
		case r == ZWJ || r == ZWNJ:
			if s := letterScript(rs, i); s != "" {
				inv.Role, inv.Script = RoleJoiner, s
			}
		}
		out = append(out, inv)
	}
	return out
}

// tagFlag returns how many runes from rs[i] (a tag) on are the tags of an
// RGI subdivision flag whose black flag precedes them, or 0.
func tagFlag(rs []rune, i int) int {
	if i == 0 || rs[i-1] != BlackFlag {
		return 0
	}
	var spelled strings.Builder
	for k := i; k < len(rs) && IsTag(rs[k]); k++ {
		if rs[k] == CancelTag {
			if slices.Contains(rgiTagFlags, spelled.String()) {
				return k - i + 1
			}
			return 0
		}
		spelled.WriteRune(rs[k] - tagFirst)
	}
	return 0
}

// emojiBefore reports whether the cluster before rs[i] is an emoji that a
// ZWJ may continue: an emoji, possibly with a modifier or selector.
func emojiBefore(rs []rune, i int) bool {
	k := i - 1
	for k >= 0 && (IsModifier(rs[k]) || rs[k] == VS16) {
		k--
	}
	return k >= 0 && IsPictographic(rs[k])
}

func isKeycapBase(r rune) bool { return r == '#' || r == '*' || (r >= '0' && r <= '9') }

// letterScript returns the script of the letter a joiner at rs[i]
// follows, skipping its combining marks; "" when it follows no letter.
func letterScript(rs []rune, i int) string {
	k := i - 1
	for k >= 0 && unicode.In(rs[k], unicode.Mn, unicode.Mc) {
		k--
	}
	if k < 0 || !unicode.IsLetter(rs[k]) {
		return ""
	}
	for name, tab := range unicode.Scripts {
		if unicode.Is(tab, rs[k]) {
			return name
		}
	}
	return ""
}

// RuneName names a character for the operator: "U+202E RIGHT-TO-LEFT
// OVERRIDE", or just its code point when Unicode gives it no name.
func RuneName(r rune) string {
	if n := runenames.Name(r); n != "" && !strings.HasPrefix(n, "<") {
		return fmt.Sprintf("%U %s", r, n)
	}
	return fmt.Sprintf("%U", r)
}

// maxNamed bounds how many characters a refusal names.
const maxNamed = 6

// RefuseChars returns nil when bad is empty, else the EInvalid error that
// names each distinct character of bad (in order, at most maxNamed) and
// says why cli cannot take it.
func RefuseChars(cli, why string, bad []rune) error {
	if len(bad) == 0 {
		return nil
	}
	var names []string
	seen := map[rune]bool{}
	for _, r := range bad {
		if !seen[r] {
			seen[r] = true
			names = append(names, RuneName(r))
		}
	}
	more := ""
	if len(names) > maxNamed {
		more = fmt.Sprintf(" and %d more", len(names)-maxNamed)
		names = names[:maxNamed]
	}
	return conv.Errorf(conv.EInvalid, "the reply contains characters %s %s: %s%s; remove them and send again",
		cli, why, strings.Join(names, ", "), more)
}
