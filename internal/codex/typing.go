package codex

import (
	"lab/internal/clikit"
)

// What the Codex CLI's input box takes as typed, observed on 0.171.0 by
// pasting each kind of character and reading the rollout
// (docs/codex-facts.md, TestE2ECodexReplyCharacterClasses): everything
// lands exactly as typed, invisible characters, bidi controls and
// decomposed (NFD) text included, though the box does not draw the
// invisible ones. Refused are the characters whose width the TUI and the
// terminal disagree on so that the rest of the line shifts and stale cells
// show at its end (lab could not tell the paste arrived whole): the
// interlinear annotation characters, noncharacters and code points not
// assigned in the Basic Multilingual Plane. (An unknown emoji, being wide,
// only leaves its own cells stale, which the comparison allows.)

func (driver) Typable(text string) (string, error) {
	var bad []rune
	for _, r := range text {
		if clikit.IsAnnotation(r) || clikit.IsNoncharacter(r) || (r <= 0xffff && !clikit.IsAssigned(r)) {
			bad = append(bad, r)
		}
	}
	return text, clikit.RefuseChars("the Codex CLI", "cannot show in its input box", bad)
}

// ClearKey is ctrl+u: it deletes back to the start of the line, or the
// line break before an empty line.
func (driver) ClearKey() string { return "C-u" }
