package chat

import (
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
)

// previewMax bounds the runs list's one-line preview.
const previewMax = 140

// previewOf words a message as one line for the runs list, from the
// neutral message alone: the runs list shows where each conversation is
// without opening it.
func previewOf(m conv.Message) string {
	var s string
	switch m.Kind {
	case conv.KindText:
		s = plainLine(m.Text)
		if m.Role == conv.RoleUser && s != "" {
			s = "You: " + s
		}
	case conv.KindThinking:
		s = "Thinking…"
	case conv.KindTool:
		if m.Tool != nil {
			s = strings.TrimSpace(m.Tool.Name + ": " + plainLine(m.Tool.Input))
		}
	case conv.KindDialog:
		if d := m.Dialog; d != nil {
			switch {
			case len(d.Questions) > 0:
				s = plainLine(d.Questions[0].Question)
			case d.Plan != "":
				s = "Plan: " + plainLine(d.Plan)
			}
		}
	case conv.KindLifecycle:
		if m.Lifecycle != nil {
			s = plainLine(m.Lifecycle.Text)
		}
	}
	return clipRunes(s, previewMax)
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
