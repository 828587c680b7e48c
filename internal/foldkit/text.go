package foldkit

import (
	"strings"
	"time"
	"unicode/utf8"

	"lab/internal/jsonscan"
)

// OutputMax bounds a tool chip's output: the chat shows the head of it
// and the full size, never megabytes.
const OutputMax = 4096

// SummaryMax bounds a tool chip's one-line input summary.
const SummaryMax = 200

// Timestamp parses a line's raw timestamp value; a missing or odd one is
// zero.
func Timestamp(raw []byte) time.Time {
	s, ok := jsonscan.String(raw)
	if !ok {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// OneLine keeps the first non-empty line of s, marks dropped lines with
// an ellipsis, and cuts it to max bytes on a rune boundary.
func OneLine(s string, max int) string {
	s = strings.TrimSpace(s)
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = strings.TrimSpace(s[:i]), true
	}
	s = strings.ReplaceAll(s, "\t", " ")
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, more = s[:n], true
	}
	if more {
		s += " …"
	}
	return s
}
