package codex

import (
	"strings"
	"testing"
)

// The footer of an idle TUI in Default and in Plan mode, as 0.171.0 draws
// them (120 columns, trailing blanks trimmed).
const (
	idleDefault = "\n\n› Ask Codex to do anything\n\n  GPT-5.5 default · /tmp/work · Scripted session\n  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view\n"
	idlePlan    = "\n\n› Ask Codex to do anything\n\n  GPT-5.5 medium · /tmp/work · Scripted session\n  ← for agents · ? for shortcuts                             Plan mode (shift+tab to cycle) · ⚠ 2 warnings · f2 to view\n"
)

func TestOpeningChecks(t *testing.T) {
	typed := strings.Replace(idlePlan, "Ask Codex to do anything", "lab:plan go", 1)
	for _, c := range []struct {
		name  string
		check interface {
			Match(string) (string, error)
		}
		pane string
		pass bool
	}{
		{"ready on an empty box", promptReady{}, idleDefault, true},
		{"not ready with text typed", promptReady{}, typed, false},
		{"not ready on a picker", promptReady{}, "  Implement this plan?\n\n› 1. Yes, implement this plan  Switch\n", false},
		{"plan mode in the footer", planModeShown{}, idlePlan, true},
		{"default mode", planModeShown{}, idleDefault, false},
		{"holds the prompt", promptHolds{"lab:plan go"}, typed, true},
		{"does not hold it yet", promptHolds{"lab:plan go"}, idlePlan, false},
		{"submitted once the box is empty", promptSubmitted{"lab:plan go"}, idlePlan, true},
		{"not submitted while it holds it", promptSubmitted{"lab:plan go"}, typed, false},
	} {
		_, err := c.check.Match(c.pane)
		if (err == nil) != c.pass {
			t.Errorf("%s: err %v; want pass=%v", c.name, err, c.pass)
		}
	}
}
