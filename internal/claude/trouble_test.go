package claude

import (
	"strings"
	"testing"

	"lab/internal/conv"
)

// paneAbove is the top of a 2.1.328 pane before the status line; the
// input box follows it.
const paneAbove = ` ▐▛███▛█   Claude Code v2.1.328
▝▜██████▀  Opus 5.5 · API Usage Billing
 ▝▝   ▝▝   /tmp/pushlab/work

❯ lab:overloaded hello

`

const paneBelow = `
────────────────────────────────────────────────────────────────────────
❯ 
────────────────────────────────────────────────────────────────────────
  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt
`

func TestTroubleReadsTheRetryLine(t *testing.T) {
	tests := []struct {
		name   string
		status string
		want   string // "" for no trouble
	}{
		{"overloaded with the gateway hint",
			"✻ 529 Overloaded · retrying in 13s · attempt 6/10\n  ⎿ \u00a0If it persists, check your inference gateway (127.0.0.1:33255).",
			"API error: 529 Overloaded · retrying in 13s · attempt 6/10. If it persists, check your inference gateway (127.0.0.1:33255)."},
		{"server error", "✻ 500 Internal server error · retrying in 6s · attempt 5/10", "API error: 500 Internal server error · retrying in 6s · attempt 5/10"},
		{"dropped connection, another spinner frame", "✶ Connection dropped (ECONNRESET) · retrying in 3s · attempt 5/10",
			"API error: Connection dropped (ECONNRESET) · retrying in 3s · attempt 5/10"},
		{"working normally", "✻ Crunching… (3s · esc to interrupt)", ""},
		{"the agent's prose quoting a retry", "● The job said: 500 · retrying in 5s · attempt 1/3", ""},
		{"the final error is in the transcript, not a retry", "● API Error: 529 Overloaded. This is a server-side issue, usually temporary", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Trouble(paneAbove + tt.status + paneBelow)
			if tt.want == "" {
				if got != nil {
					t.Fatalf("got %+v; want no trouble", got)
				}
				return
			}
			if got == nil || got.Level != conv.LevelWarning || got.Text != tt.want {
				t.Fatalf("got %+v; want warning %q", got, tt.want)
			}
			if strings.Contains(got.Text, "\n") {
				t.Fatalf("warning spans lines: %q", got.Text)
			}
		})
	}
}

// After Escape during the retries the CLI is idle with the prompt back in
// its input box (2.1.328), and the footer no longer offers to interrupt.
func TestTroubleSeesTheCLIIdle(t *testing.T) {
	box := func(text string) string {
		return paneAbove + `
────────────────────────────────────────────────────────────────────────
❯ ` + text + `
────────────────────────────────────────────────────────────────────────
  ⏵⏵ auto mode on (shift+tab to cycle)
`
	}
	idle := box("lab:overloaded hello")
	got := Trouble(idle)
	if got == nil || !strings.Contains(got.Text, "stopped without finishing the turn") || !strings.HasSuffix(got.Text, "lab:overloaded hello") {
		t.Fatalf("idle with the prompt back: got %+v", got)
	}
	empty := box("")
	if got := Trouble(empty); got == nil || !strings.Contains(got.Text, "idle at its prompt") {
		t.Fatalf("idle with an empty box: got %+v", got)
	}
	// Working: the footer offers to interrupt.
	if got := Trouble(paneAbove + "✻ Crunching… (3s)\n" + paneBelow); got != nil {
		t.Fatalf("working: got %+v; want nothing", got)
	}
	// A picker has the focus: no input box, nothing to say.
	if got := Trouble(paneAbove + "❯ 1. Yes\n  2. No\n"); got != nil {
		t.Fatalf("picker: got %+v; want nothing", got)
	}
}
