package claude

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"lab/internal/clikit"
)

// What Claude Code's input box takes as typed, observed on 2.1.328 and
// 2.1.332 by pasting each kind of character and reading the transcript
// (docs/claude-code-observed.md, TestE2EReplyCharacterClasses):
//
//   - text is recorded composed (NFC): "cafe\u0301" as "café";
//   - U+2028 and U+2029 are recorded as line breaks;
//   - invisible characters are dropped: bidi controls, zero width space,
//     soft hyphen, word joiner, byte order mark, stray variation selectors
//     and tags, Hangul fillers, the combining grapheme joiner;
//   - except where they build an emoji (a ZWJ between emoji, a selector
//     after an emoji or keycap base, the tags of a subdivision flag) or
//     join the letters of a script that needs them (joinerScripts);
//   - everything else visible lands as typed: emoji with modifiers,
//     combining marks, CJK, right-to-left scripts, private use and
//     unassigned code points.

// joinerScripts are the scripts after whose letters Claude Code keeps a
// ZWJ or ZWNJ. Observed kept: Arabic, Syriac, Devanagari, Bengali,
// Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala;
// dropped: Latin, Cyrillic, Greek, Hebrew, Thai, Han, Hangul, Mongolian.
var joinerScripts = map[string]bool{
	"Arabic": true, "Syriac": true, "Devanagari": true, "Bengali": true, "Gurmukhi": true,
	"Gujarati": true, "Oriya": true, "Tamil": true, "Telugu": true, "Kannada": true,
	"Malayalam": true, "Sinhala": true,
}

// lineSeparators become the line breaks Claude Code records them as.
var lineSeparators = strings.NewReplacer("\u2028", "\n", "\u2029", "\n")

func (driver) Typable(text string) (string, error) {
	text = lineSeparators.Replace(norm.NFC.String(text))
	var bad []rune
	for _, inv := range clikit.Invisibles(text) {
		if inv.Role == clikit.RoleEmoji || (inv.Role == clikit.RoleJoiner && joinerScripts[inv.Script]) {
			continue
		}
		bad = append(bad, inv.Rune)
	}
	return text, clikit.RefuseChars("Claude Code", "drops from a prompt", bad)
}

// ClearKey is ctrl+u: it deletes back to the start of the line, or the
// line break before an empty line.
func (driver) ClearKey() string { return "C-u" }
