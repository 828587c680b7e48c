package chat

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lab/internal/conv"
)

func TestPreviewOf(t *testing.T) {
	tests := []struct {
		name string
		m    conv.Message
		want string
	}{
		{"assistant markdown", conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Text: "## Done\n\nAll **tests** pass."}, "Done"},
		{"operator's reply", conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Text: "  carry on\nplease "}, "You: carry on"},
		{"code fence first", conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Text: "```go\nx := 1\n```"}, "x := 1"},
		{"list item", conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Text: "- first   item"}, "first item"},
		{"tool", conv.Message{Kind: conv.KindTool, Tool: &conv.ToolCall{Name: "Bash", Input: "npm test"}}, "Bash: npm test"},
		{"question", conv.Message{Kind: conv.KindDialog, Dialog: &conv.Dialog{Questions: []conv.Question{{Question: "Which database?"}}}}, "Which database?"},
		{"plan", conv.Message{Kind: conv.KindDialog, Dialog: &conv.Dialog{Kind: conv.DialogPlan, Plan: "# Plan: add a greeting\n1. x"}}, "Plan: add a greeting"},
		{"lifecycle", conv.Message{Kind: conv.KindLifecycle, Lifecycle: &conv.Lifecycle{Level: conv.LevelError, Text: "API Error: 529 Overloaded."}}, "API Error: 529 Overloaded."},
		{"thinking is no line", conv.Message{Kind: conv.KindThinking, Text: "secret reasoning"}, ""},
		{"an unknown tool's raw input", conv.Message{Kind: conv.KindTool, Tool: &conv.ToolCall{Name: "mcp__x__y", Input: `{"a":1}`}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := previewOf(tt.m); got != tt.want {
				t.Fatalf("got %q; want %q", got, tt.want)
			}
		})
	}
	long := previewOf(conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Text: strings.Repeat("é", 500)})
	if utf8.RuneCountInString(long) != previewMax || !strings.HasSuffix(long, "…") {
		t.Fatalf("long preview: %d runes; want %d ending in …", utf8.RuneCountInString(long), previewMax)
	}
}

func TestStreamPreviewTakesTheNewestLine(t *testing.T) {
	msgs := []conv.Message{
		{Kind: conv.KindText, Role: conv.RoleAssistant, Text: "Checking the issue."},
		{Kind: conv.KindThinking, Text: "hmm"},
		{Kind: conv.KindTool, Tool: &conv.ToolCall{Name: "mcp__tracker__get", Input: `{"id":7}`}},
	}
	if got := streamPreview(msgs); got != "Checking the issue." {
		t.Fatalf("got %q", got)
	}
	if got := streamPreview(msgs[1:]); got != "" {
		t.Fatalf("nothing readable: got %q", got)
	}
}
