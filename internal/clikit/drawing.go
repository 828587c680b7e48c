package clikit

import (
	"regexp"
	"strings"
)

// Both TUIs draw a turn the same way below the prompt they echo: each
// thing the agent does is a block whose first line starts with a bullet
// at column 0 ("● " on Claude Code, "• " on Codex) and whose further lines
// are indented by two spaces, wrapped by the TUI at its own width; blank
// lines separate paragraphs of one block. A status line (a spinner, an
// interrupt notice) starts at column 0 without a bullet; right-aligned
// status text sits far to the right. The text being streamed is the last
// block, drawn line by line as it grows (only whole lines on Claude
// Code). What a block is (text, a tool, a status) is the adapter's call.

// Drawn is how one TUI draws a turn.
type Drawn struct {
	Echo   string // how an echoed prompt line starts ("❯ ")
	Bullet string // how a block's first line starts ("● ")
}

// farIndent is where right-aligned status text starts: deeper than any
// indent the agent's own words get (lists, code).
const farIndent = 12

// LastBlock returns the last block drawn in lines (the pane above the
// input box) below the last echoed prompt: its lines with the bullet and
// the continuation indent taken off, trailing blank and right-aligned
// lines dropped. A pane whose long block scrolled its start (and the
// prompt) off the top shows only indented lines: those are the block's
// tail. ok is false when no block follows the prompt.
func (d Drawn) LastBlock(lines []string) (block []string, ok bool) {
	from := 0
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], d.Echo) {
			from = i + 1
			break
		}
	}
	start := -1
	for i := from; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], d.Bullet) || lines[i] == strings.TrimSpace(d.Bullet) {
			start = i
		}
	}
	switch {
	case start >= 0:
		block = append(block, strings.TrimSpace(strings.TrimPrefix(lines[start], strings.TrimSpace(d.Bullet))))
		start++
	case from == 0 && len(lines) > 0 && strings.HasPrefix(lines[0], "  "):
		start = 0 // the block's start scrolled off
	default:
		return nil, false
	}
	for _, l := range lines[start:] {
		if l != "" && !strings.HasPrefix(l, "  ") {
			break // a status line, another block
		}
		block = append(block, strings.TrimPrefix(l, "  "))
	}
	for len(block) > 0 {
		last := block[len(block)-1]
		if strings.TrimSpace(last) != "" && indentOf(last) < farIndent-2 {
			break
		}
		block = block[:len(block)-1]
	}
	return block, len(block) > 0 && strings.TrimSpace(strings.Join(block, "")) != ""
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// listItemRE matches the start of a list item, a quote or a table row:
// lines whose break is the agent's, not the TUI's wrapping.
var listItemRE = regexp.MustCompile(`^\s*(?:[-*+•◦▪]\s|\d+[.)]\s|>|\||[│┃├└┌])`)

// Unwrap turns a block's lines back into text as far as a pane tells. A
// line the TUI wrapped is a long one (minWrapped) whose next word would
// not have fitted on it (the block's widest line stands for the TUI's
// width): its next line joins it with a space. Every other break is the
// agent's: blank lines separate paragraphs, and a list item, quote or
// table row starts a line of its own. A text whose lines are all short
// keeps them all.
func Unwrap(block []string) string {
	wide := 0
	for _, l := range block {
		wide = max(wide, len([]rune(l)))
	}
	var b strings.Builder
	prev := "" // the line before, "" after a blank one
	for _, l := range block {
		l = strings.TrimRight(l, " ")
		switch {
		case l == "":
			if prev != "" {
				b.WriteString("\n\n")
			}
		case prev == "":
			b.WriteString(l)
		case !listItemRE.MatchString(l) && wrapped(prev, l, wide):
			b.WriteString(" ")
			b.WriteString(strings.TrimLeft(l, " "))
		default:
			b.WriteString("\n")
			b.WriteString(l)
		}
		prev = l
	}
	return strings.TrimSpace(b.String())
}

// minWrapped is the shortest line taken for one the TUI wrapped: shorter
// lines (code, a heading) end where the agent ended them.
const minWrapped = 40

// wrapped reports whether next's first word would have overflowed a long
// line at width wide: the TUI moved it down.
func wrapped(line, next string, wide int) bool {
	n := len([]rune(line))
	word, _, _ := strings.Cut(strings.TrimLeft(next, " "), " ")
	return n >= minWrapped && n+1+len([]rune(word)) > wide
}
