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

// Part is what a content part of a tool output shows.
type Part int

// Parts of a tool output.
const (
	PartNone  Part = iota // nothing: skipped
	PartText              // its "text"
	PartImage             // "[image]"
)

// Output renders a tool output value, a string or an array of content
// parts (each CLI's part types mapped by part), as text of at most max
// bytes, parts joined by newlines, and returns the length the full text
// would have. Null or nothing is ""; any other JSON value shows as it is,
// cut.
func Output(raw []byte, max int, part func(typ string) Part) (text string, full int) {
	if s, n, ok := jsonscan.StringPrefix(raw, max); ok {
		return s, n
	}
	arr := jsonscan.ArrayAt(raw)
	if arr.Bad() {
		if len(raw) == 0 || string(raw) == "null" {
			return "", 0
		}
		return string(raw[:jsonscan.RuneCut(raw, max)]), len(raw)
	}
	var b strings.Builder
	parts := 0
	var typ, txt []byte // the part's raw fields, read in one walk
	member := func(k, v []byte) {
		switch string(k) {
		case "type":
			typ = v
		case "text":
			txt = v
		}
	}
	for {
		typ, txt = nil, nil
		object, ok := arr.NextMembers(member)
		if !ok {
			break
		}
		if !object {
			continue
		}
		var s string
		var n int
		switch part(jsonscan.Str(typ)) {
		case PartText:
			s, n, _ = jsonscan.StringPrefix(txt, max-min(b.Len(), max))
		case PartImage:
			s, n = "[image]", len("[image]")
		default:
			continue
		}
		if parts++; parts > 1 {
			full++ // the newline joining parts
			if b.Len() < max {
				b.WriteByte('\n')
			}
		}
		full += n
		if room := max - b.Len(); room > 0 {
			b.WriteString(s[:jsonscan.RuneCut([]byte(s), room)])
		}
	}
	return b.String(), full
}
