package clikit

import (
	"unicode"
)

// This file classifies characters the way a terminal grid draws them: what
// is invisible, what is an emoji (whose width terminals and TUIs disagree
// on), and where a grapheme cluster (one user-perceived character) ends.
// Go's unicode tables lack the emoji properties and grapheme breaking, so
// the small part lab needs is here: the UAX #29 rules that matter for text
// typed on a phone (combining marks, joiners, variation selectors, emoji
// modifiers and tag sequences, flags), not Hangul syllable or Indic
// conjunct breaking, which lab compares character by character anyway.

// extPict are the Extended_Pictographic ranges of Unicode 15 (emoji-data),
// the characters emoji sequences are built of.
var extPict = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0x00a9, 0x00a9, 1}, {0x00ae, 0x00ae, 1}, {0x203c, 0x203c, 1}, {0x2049, 0x2049, 1},
		{0x2122, 0x2122, 1}, {0x2139, 0x2139, 1}, {0x2194, 0x2199, 1}, {0x21a9, 0x21aa, 1},
		{0x231a, 0x231b, 1}, {0x2328, 0x2328, 1}, {0x2388, 0x2388, 1}, {0x23cf, 0x23cf, 1},
		{0x23e9, 0x23f3, 1}, {0x23f8, 0x23fa, 1}, {0x24c2, 0x24c2, 1}, {0x25aa, 0x25ab, 1},
		{0x25b6, 0x25b6, 1}, {0x25c0, 0x25c0, 1}, {0x25fb, 0x25fe, 1}, {0x2600, 0x2605, 1},
		{0x2607, 0x2612, 1}, {0x2614, 0x2685, 1}, {0x2690, 0x2705, 1}, {0x2708, 0x2712, 1},
		{0x2714, 0x2714, 1}, {0x2716, 0x2716, 1}, {0x271d, 0x271d, 1}, {0x2721, 0x2721, 1},
		{0x2728, 0x2728, 1}, {0x2733, 0x2734, 1}, {0x2744, 0x2744, 1}, {0x2747, 0x2747, 1},
		{0x274c, 0x274c, 1}, {0x274e, 0x274e, 1}, {0x2753, 0x2755, 1}, {0x2757, 0x2757, 1},
		{0x2763, 0x2767, 1}, {0x2795, 0x2797, 1}, {0x27a1, 0x27a1, 1}, {0x27b0, 0x27b0, 1},
		{0x27bf, 0x27bf, 1}, {0x2934, 0x2935, 1}, {0x2b05, 0x2b07, 1}, {0x2b1b, 0x2b1c, 1},
		{0x2b50, 0x2b50, 1}, {0x2b55, 0x2b55, 1}, {0x3030, 0x3030, 1}, {0x303d, 0x303d, 1},
		{0x3297, 0x3297, 1}, {0x3299, 0x3299, 1},
	},
	R32: []unicode.Range32{
		{0x1f000, 0x1f0ff, 1}, {0x1f10d, 0x1f10f, 1}, {0x1f12f, 0x1f12f, 1}, {0x1f16c, 0x1f171, 1},
		{0x1f17e, 0x1f17f, 1}, {0x1f18e, 0x1f18e, 1}, {0x1f191, 0x1f19a, 1}, {0x1f1ad, 0x1f1e5, 1},
		{0x1f201, 0x1f20f, 1}, {0x1f21a, 0x1f21a, 1}, {0x1f22f, 0x1f22f, 1}, {0x1f232, 0x1f23a, 1},
		{0x1f23c, 0x1f23f, 1}, {0x1f249, 0x1f3fa, 1}, {0x1f400, 0x1f53d, 1}, {0x1f546, 0x1f64f, 1},
		{0x1f680, 0x1f6ff, 1}, {0x1f774, 0x1f77f, 1}, {0x1f7d5, 0x1f7ff, 1}, {0x1f80c, 0x1f80f, 1},
		{0x1f848, 0x1f84f, 1}, {0x1f85a, 0x1f85f, 1}, {0x1f888, 0x1f88f, 1}, {0x1f8ae, 0x1f8ff, 1},
		{0x1f90c, 0x1f93a, 1}, {0x1f93c, 0x1f945, 1}, {0x1f947, 0x1faff, 1}, {0x1fc00, 0x1fffd, 1},
	},
}

// Characters with a part in emoji sequences.
const (
	ZWNJ       = '\u200c' // ZERO WIDTH NON-JOINER
	ZWJ        = '\u200d' // ZERO WIDTH JOINER
	VS15       = '\ufe0e' // VARIATION SELECTOR-15: text presentation
	VS16       = '\ufe0f' // VARIATION SELECTOR-16: emoji presentation
	Keycap     = '\u20e3' // COMBINING ENCLOSING KEYCAP
	BlackFlag  = '\U0001f3f4'
	CancelTag  = '\U000e007f'
	modLight   = '\U0001f3fb' // EMOJI MODIFIER FITZPATRICK TYPE-1-2
	modDark    = '\U0001f3ff' // EMOJI MODIFIER FITZPATRICK TYPE-6
	riFirst    = '\U0001f1e6' // REGIONAL INDICATOR SYMBOL LETTER A
	riLast     = '\U0001f1ff'
	tagFirst   = '\U000e0000'
	tagLast    = '\U000e007f'
	annotFirst = '\ufff9' // INTERLINEAR ANNOTATION ANCHOR
	annotLast  = '\ufffb' // INTERLINEAR ANNOTATION TERMINATOR
)

// IsPictographic reports whether r is Extended_Pictographic: an emoji or
// a character an emoji sequence may be built on.
func IsPictographic(r rune) bool { return unicode.Is(extPict, r) }

// IsModifier reports whether r is a skin-tone emoji modifier.
func IsModifier(r rune) bool { return r >= modLight && r <= modDark }

// IsRegional reports whether r is a regional indicator (half a flag).
func IsRegional(r rune) bool { return r >= riFirst && r <= riLast }

// IsTag reports whether r is a tag character (U+E0000–U+E007F).
func IsTag(r rune) bool { return r >= tagFirst && r <= tagLast }

// IsBidiControl reports whether r is an explicit bidirectional formatting
// character: a mark, embedding, override or isolate.
func IsBidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// IsAnnotation reports whether r is an interlinear annotation character.
func IsAnnotation(r rune) bool { return r >= annotFirst && r <= annotLast }

// IsInvisible reports whether r draws nothing of its own: a format
// character (joiners, bidi controls, soft hyphen, tags), a variation
// selector, or another default-ignorable code point (Hangul fillers, the
// combining grapheme joiner). Terminals and TUIs differ on whether they
// print such a character into a cell, so lab never relies on seeing one.
func IsInvisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) ||
		(r >= tagFirst && r <= 0xe0fff)
}

// IsNoncharacter reports whether r is one of the 66 code points Unicode
// reserves never to assign (U+FDD0–U+FDEF, the last two of each plane).
func IsNoncharacter(r rune) bool {
	return (r >= 0xfdd0 && r <= 0xfdef) || r&0xfffe == 0xfffe
}

// IsAssigned reports whether r is assigned a meaning in the Unicode
// version of Go's tables (15.0): a letter, mark, number, punctuation,
// symbol, separator, control, format or private use character.
func IsAssigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co)
}

// extends reports whether r continues the grapheme cluster before it
// rather than starting one (UAX #29 GB9, GB9a: extenders, spacing marks
// and the joiner).
func extends(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Other_Grapheme_Extend) ||
		r == ZWNJ || r == ZWJ || unicode.Is(unicode.Variation_Selector, r) || IsModifier(r) || IsTag(r)
}

// Clusters splits s into grapheme clusters, as much of UAX #29 as text on
// a terminal needs: a base with its extenders, emoji joined by ZWJ (GB11),
// and regional indicators in pairs (GB12, GB13).
func Clusters(s string) []string {
	var out []string
	start := 0
	var base, prev rune = -1, -1
	ris := 0 // regional indicators in the current cluster
	for i, r := range s {
		join := false
		switch {
		case i == 0:
		case r == '\n' || prev == '\n' || r == '\r' || prev == '\r':
		case extends(r):
			join = true
		case prev == ZWJ && IsPictographic(r) && IsPictographic(base):
			join = true
		case IsRegional(r) && IsRegional(base) && ris%2 == 1:
			join = true
		}
		if !join && i > 0 {
			out = append(out, s[start:i])
			start, base, ris = i, -1, 0
		}
		if base < 0 {
			base = r
		}
		if IsRegional(r) {
			ris++
		}
		prev = r
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
