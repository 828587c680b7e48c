package claude

import (
	"strings"
	"testing"

	"lab/internal/clikit"
)

// The words a streaming turn draws, read off real panes (2.1.332 against
// the scripted model's lab:slow and lab:bash).
func TestDrawingFromRealPanes(t *testing.T) {
	var words []string
	for i := 1; i <= 36; i++ {
		words = append(words, "word"+itoa(i))
	}
	for _, tc := range []struct{ pane, want string }{
		{"stream-waiting", ""}, // the spinner, no block yet
		{"stream-begun", ""},   // a bullet with no words drawn yet
		{"stream-text", "Streaming slowly: " + strings.Join(words, " ")},
		{"stream-tool-done", "tool_result for Bash: lab-bash-ok"}, // the turn's last words (in the transcript by then)
		{"prompt-empty", ""},
		{"single-fresh", ""}, // a picker: no input box
		{"permission-prompt", ""},
	} {
		t.Run(tc.pane, func(t *testing.T) {
			// The scripted text breaks its lines every 12 words, which a
			// pane cannot tell from wrapping: the words count, not where
			// the lines break.
			if got := Drawing(readPaneText(t, tc.pane)); !clikit.SameText(got, tc.want) || (got == "") != (tc.want == "") {
				t.Fatalf("got %q; want %q", got, tc.want)
			}
		})
	}
	// A tool call drawn as such, with its output under it, is not words.
	tool := "❯ go\n● Bash(npm test)\n  ⎿  ok\n" + strings.Repeat("─", 40) + "\n❯ \n" + strings.Repeat("─", 40)
	if got := Drawing(tool); got != "" {
		t.Fatalf("a tool call: got %q; want none", got)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
