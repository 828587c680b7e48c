package chat

import (
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
)

// previewMax bounds the runs list's one-line preview.
const previewMax = 140

// previewBack is how many of the newest messages the preview looks
// through for a line a person would read.
const previewBack = 30

// previewOf words a message as one line for the runs list, from the
// neutral message alone: the runs list shows where each conversation is
// without opening it. It is "" for what is no line a person would read:
// thinking, and a tool call whose summary is its raw input.
func previewOf(m conv.Message) string {
	var s string
	switch m.Kind {
	case conv.KindText:
		s = plainLine(m.Text)
		if m.Role == conv.RoleUser && s != "" {
			s = "You: " + s
		}
	case conv.KindTool:
		if m.Tool != nil && !rawPayload(m.Tool.Input) {
			s = strings.TrimSpace(m.Tool.Name + ": " + plainLine(m.Tool.Input))
		}
	case conv.KindDialog:
		s = conv.DialogLine(m.Dialog)
	case conv.KindLifecycle:
		if m.Lifecycle != nil {
			s = plainLine(m.Lifecycle.Text)
		}
	}
	return clipRunes(s, previewMax)
}

// streamPreview is the newest message of msgs (oldest first) that reads
// as a line.
func streamPreview(msgs []conv.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if s := previewOf(msgs[i]); s != "" {
			return s
		}
	}
	return ""
}

// rawPayload reports whether a tool's input summary is its raw
// arguments (an unknown tool's JSON) rather than words.
func rawPayload(input string) bool {
	s := strings.TrimSpace(input)
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
}

// plainLine is the first line of markdown with text in it, without the
// marks that start a heading, quote or list item, and with runs of spaces
// folded.
func plainLine(md string) string {
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			continue
		}
		line = strings.TrimSpace(strings.TrimLeft(line, "#>*-+ \t"))
		if line != "" {
			return strings.Join(strings.Fields(line), " ")
		}
	}
	return ""
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}
