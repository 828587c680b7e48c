package codex

import (
	"strconv"
	"strings"
	"testing"

	"lab/internal/clikit"
)

// The words a streaming turn draws, read off real panes (0.171.0 against
// the scripted model's lab:slow and lab:bash).
func TestDrawingFromRealPanes(t *testing.T) {
	upTo := func(n int) string {
		var words []string
		for i := 1; i <= n; i++ {
			words = append(words, "word"+strconv.Itoa(i))
		}
		return "Streaming slowly: " + strings.Join(words, " ")
	}
	d := driver{}
	for _, tc := range []struct{ pane, want string }{
		{"stream-waiting", ""}, // "• Working (0s • esc to interrupt)"
		{"stream-text", upTo(32)},
		{"stream-interrupted", upTo(47)}, // what the pane keeps; the rollout has none of it
		{"stream-tool-done", "tool output for exec_command: Chunk ID: 752461\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nlab-bash-ok"},
		{"permission_pending", ""}, // an approval prompt: no input box
	} {
		t.Run(tc.pane, func(t *testing.T) {
			// The scripted text breaks its lines every 12 words, which a
			// pane cannot tell from wrapping: the words count, not where
			// the lines break.
			if got := d.Drawing(pane(t, tc.pane)); !clikit.SameText(got, tc.want) || (got == "") != (tc.want == "") {
				t.Fatalf("got %q; want %q", got, tc.want)
			}
		})
	}
	ran := "› go\n\n• Ran echo hi\n  └ hi\n\n› Ask Codex to do anything\n" + statusLines
	if got := d.Drawing(ran); got != "" {
		t.Fatalf("a command with its output: got %q; want none", got)
	}
}
