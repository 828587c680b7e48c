package claude

import (
	"strings"
	"testing"

	"lab/internal/agent"

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

func TestRetryingReadsTheRetryLine(t *testing.T) {
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
			got := Retrying(paneAbove + tt.status + paneBelow)
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

// Look reports a retrying CLI as busy with the retry as its warning, and
// the CLI back at its input box after Escape cancelled the retries
// (2.1.328: the prompt is put back into the box, the footer loses "esc to
// interrupt") as the prompt.
func TestLookSeesRetriesAndTheirCancel(t *testing.T) {
	d := New().NewDriver("2.1.328")
	busy := d.Look(paneAbove + "✻ 500 Internal server error · retrying in 6s · attempt 5/10" + paneBelow)
	if busy.Kind != agent.LookBusy || busy.Warning == nil || !strings.Contains(busy.Warning.Text, "attempt 5/10") {
		t.Fatalf("retrying: got %+v", busy)
	}
	if w := d.Look(paneAbove + "✻ Crunching… (3s)\n" + paneBelow); w.Kind != agent.LookBusy || w.Warning != nil {
		t.Fatalf("working: got %+v; want busy without a warning", w)
	}
	cancelled := paneAbove + `
────────────────────────────────────────────────────────────────────────
❯ lab:overloaded hello
────────────────────────────────────────────────────────────────────────
  ⏵⏵ auto mode on (shift+tab to cycle)
`
	if got := d.Look(cancelled); got.Kind != agent.LookPrompt || got.Warning != nil {
		t.Fatalf("after Escape: got %+v; want the prompt", got)
	}
}
