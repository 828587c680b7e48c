package clikit

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// This file compares the text an input box shows on a plain tmux capture
// with the text lab pasted into it. A capture is not the text: the TUI
// wraps it across lines, may compose it (NFC), and the terminal draws it
// on a grid whose idea of each character's width is its own. Observed on
// Claude Code 2.1.328/2.1.332 and Codex 0.171.0 in tmux 3.3a (see
// docs/claude-code-observed.md, docs/codex-facts.md):
//
//   - invisible characters (joiners, bidi controls, soft hyphens, variation
//     selectors, tags) are printed by one CLI and dropped by the other;
//   - an emoji with a skin-tone modifier shows as its base alone ("👍🏽" as
//     "👍"), and a ZWJ sequence built on it loses everything after the base;
//     a tag flag loses its last tags;
//   - tmux keeps only so many combining marks per cell, dropping the rest;
//   - a character the terminal's width table does not know (an emoji newer
//     than its libc, an unassigned code point) is dropped, and the cells
//     the TUI reserved for it keep whatever they showed before (Codex) or
//     show a blank (Claude Code).
//
// So the comparison is cluster by cluster: a plain cluster (letters,
// digits, punctuation and their marks) must show, at least its base and
// then a prefix of its marks; an emoji-like or unknown cluster (a
// "fragile" one) may show as anything up to twice its length in runes,
// nothing included. White space and invisible characters are ignored on
// both sides, so wrapping and a CLI's choice to print a joiner or not never
// matter.

// token is one cluster of the wanted text as the box may show it.
type token struct {
	base  rune
	marks []rune // what follows the base in the cluster, visible runes only
	wild  int    // > 0: a fragile run of clusters, matching up to wild runes
}

// BoxShows reports whether shown, the text of an input box read off a
// plain capture (lines joined, the prompt glyph removed), is how a
// terminal may draw want. A box that shows nothing visible never shows a
// text, so an Enter is never sent to a box the paste has not reached yet.
func BoxShows(shown, want string) bool {
	s := visible(norm.NFC.String(shown))
	if len(s) == 0 {
		return false
	}
	want = norm.NFC.String(want)
	return matches(tokens(want), s, slack(want))
}

// visible returns s's runes without white space and invisible characters.
func visible(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if !unicode.IsSpace(r) && !IsInvisible(r) {
			out = append(out, r)
		}
	}
	return out
}

// tokens turns want into what the box must show: plain clusters as they
// are, consecutive fragile clusters merged into one wildcard.
func tokens(want string) []token {
	var out []token
	for _, c := range Clusters(want) {
		v := visible(c)
		if len(v) == 0 {
			continue // white space or invisible only: nothing to see
		}
		if fragile(c, v) {
			if n := len(out); n > 0 && out[n-1].wild > 0 {
				out[n-1].wild += 2 * len(v)
			} else {
				out = append(out, token{wild: 2 * len(v)})
			}
			continue
		}
		out = append(out, token{base: v[0], marks: v[1:]})
	}
	return out
}

// fragile reports whether a cluster may show as something else than
// itself: an emoji or a sequence built with emoji parts, a symbol whose
// width terminals disagree on, a character outside the Basic Multilingual
// Plane (terminal width tables lag behind Unicode), or one no table knows
// (unassigned, private use, noncharacters).
func fragile(cluster string, v []rune) bool {
	for _, r := range cluster {
		// A selector or keycap changes the width ("#️⃣", "↔️"); a ZWJ
		// matters only after an emoji, which the base tells below.
		if r == VS15 || r == VS16 || r == Keycap || IsTag(r) || IsModifier(r) || IsRegional(r) {
			return true
		}
	}
	b := v[0]
	switch {
	case b > 0xffff, IsPictographic(b), unicode.Is(unicode.So, b), unicode.Is(unicode.Co, b):
		return true
	case !IsAssigned(b):
		return true // unassigned, a noncharacter or a surrogate
	}
	return false
}

// matchWork bounds the steps of one match, per rune of the capture: text
// and capture that agree need one or two; only a capture built to be
// ambiguous (long runs of one letter between emoji) needs more, and is
// then read as not showing the text, which withdraws a reply rather than
// wedging one.
const matchWork = 64

// maxSlack bounds the stray runes a capture may have (see slack).
const maxSlack = 8

// none marks a position no prefix of the tokens ends at.
const none = 255

// slack is how many stray runes a capture of want may show beyond it: a
// TUI that counts an invisible character or a line separator as a column
// the terminal does not give it (Codex 0.171.0 in tmux 3.3a) leaves the
// line's last cells as they were, one stale character each.
func slack(want string) int {
	n := 0
	for _, r := range want {
		if IsInvisible(r) || r == '\u2028' || r == '\u2029' {
			n++
		}
	}
	return min(n, maxSlack)
}

// matches reports whether the runes s can be read as the tokens in order,
// using all of s and skipping at most skips stray runes. cost[j] is the
// fewest skips with which a prefix of the tokens ends at position j of s.
func matches(toks []token, s []rune, skips int) bool {
	work := matchWork * (len(s) + len(toks) + 16)
	cost := make([]uint8, len(s)+1)
	next := make([]uint8, len(s)+1)
	for j := range cost {
		cost[j], next[j] = none, none
	}
	lo, hi := 0, 0 // cost is none outside [lo, hi]
	cost[0] = 0
	// skip lets stray runes follow any reachable position.
	skip := func(c []uint8, lo, hi int) int {
		for j := lo; j <= hi && j < len(s); j++ {
			if c[j] < uint8(skips) && c[j]+1 < c[j+1] {
				c[j+1] = c[j] + 1
				hi = max(hi, j+1)
			}
		}
		return hi
	}
	hi = skip(cost, lo, hi)
	for _, t := range toks {
		if work -= (hi - lo + 1) * (1 + len(t.marks) + t.wild); work < 0 {
			return false
		}
		// next is all none here; only cost[lo..hi] may be set.
		nlo, nhi := len(s)+1, -1
		mark := func(j int, c uint8) {
			next[j] = min(next[j], c)
			nlo, nhi = min(nlo, j), max(nhi, j)
		}
		if t.wild > 0 {
			// A wildcard reads 0 to wild runes.
			for j := lo; j <= hi; j++ {
				if cost[j] == none {
					continue
				}
				for k := 0; k <= t.wild && j+k <= len(s); k++ {
					mark(j+k, cost[j])
				}
			}
		} else {
			for j := lo; j <= hi && j < len(s); j++ {
				if cost[j] == none || s[j] != t.base {
					continue
				}
				// The base, then any prefix of its marks the cell kept.
				mark(j+1, cost[j])
				for k, m := range t.marks {
					if j+1+k >= len(s) || s[j+1+k] != m {
						break
					}
					mark(j+2+k, cost[j])
				}
			}
		}
		if nhi < 0 {
			return false
		}
		nhi = skip(next, nlo, nhi)
		for j := lo; j <= hi; j++ {
			cost[j] = none
		}
		cost, next = next, cost
		lo, hi = nlo, nhi
	}
	return hi >= len(s) && cost[len(s)] != none
}
