package codex

import (
	"strings"
	"testing"

	"lab/internal/agent"
)

// The footer of an idle TUI in Default and in Plan mode, as 0.171.0 draws
// them (120 columns, trailing blanks trimmed).
const (
	idleDefault = "\n\n› Ask Codex to do anything\n\n  GPT-5.5 default · /tmp/work · Scripted session\n  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view\n"
	idlePlan    = "\n\n› Ask Codex to do anything\n\n  GPT-5.5 medium · /tmp/work · Scripted session\n  ← for agents · ? for shortcuts                             Plan mode (shift+tab to cycle) · ⚠ 2 warnings · f2 to view\n"
)

func TestOpeningChecks(t *testing.T) {
	typed := strings.Replace(idlePlan, "Ask Codex to do anything", "lab:plan go", 1)
	withImages := strings.Replace(idlePlan, "Ask Codex to do anything", "[Image #1] [Image #2] lab:plan go", 1)
	imagesOnly := strings.Replace(idlePlan, "Ask Codex to do anything", "[Image #1] [Image #2]", 1)
	for _, c := range []struct {
		name  string
		check interface {
			Match(string) (string, error)
		}
		pane string
		pass bool
	}{
		{"ready on an empty box", agent.BoxEmpty{Read: readPrompt}, idleDefault, true},
		{"not ready with text typed", agent.BoxEmpty{Read: readPrompt}, typed, false},
		{"not ready with an image attached", agent.BoxEmpty{Read: readPrompt}, imagesOnly, false},
		{"not ready on a picker", agent.BoxEmpty{Read: readPrompt}, "  Implement this plan?\n\n› 1. Yes, implement this plan  Switch\n", false},
		{"plan mode in the footer", planModeShown{}, idlePlan, true},
		{"default mode", planModeShown{}, idleDefault, false},
		{"two images attached", agent.BoxAttached{Read: readPrompt, N: 2}, imagesOnly, true},
		{"one image is not two", agent.BoxAttached{Read: readPrompt, N: 1}, imagesOnly, false},
		{"holds the prompt", agent.BoxHolds{Read: readPrompt, Text: "lab:plan go"}, typed, true},
		{"holds the prompt with its images", agent.BoxHolds{Read: readPrompt, Text: "lab:plan go", N: 2}, withImages, true},
		{"the images are not all there", agent.BoxHolds{Read: readPrompt, Text: "lab:plan go", N: 2}, typed, false},
		{"does not hold it yet", agent.BoxHolds{Read: readPrompt, Text: "lab:plan go"}, idlePlan, false},
		{"submitted once the box is empty", agent.BoxSubmitted{Read: readPrompt, Text: "lab:plan go"}, idlePlan, true},
		{"not submitted while it holds it", agent.BoxSubmitted{Read: readPrompt, Text: "lab:plan go"}, typed, false},
		{"images alone not submitted while attached", agent.BoxSubmitted{Read: readPrompt, N: 2}, imagesOnly, false},
		{"images alone submitted once gone", agent.BoxSubmitted{Read: readPrompt, N: 2}, idlePlan, true},
	} {
		_, err := c.check.Match(c.pane)
		if (err == nil) != c.pass {
			t.Errorf("%s: err %v; want pass=%v", c.name, err, c.pass)
		}
	}
}

// TestPlanOpeningAttachesImages: in Plan mode the first prompt's images
// are pasted after the mode switch, each checked, before the text.
func TestPlanOpeningAttachesImages(t *testing.T) {
	var got []string
	for _, s := range planOpening("lab:plan look", []string{"/u/a.png", "/u/b.png"}) {
		got = append(got, s.String())
	}
	want := []string{"expect an empty input box", "BTab", "expect Plan mode in the footer", "expect an empty input box",
		`paste "/u/a.png"`, "expect 1 attachments in the input box", `paste "/u/b.png"`, "expect 2 attachments in the input box",
		`paste "lab:plan look"`, "expect the input box holding the prompt", "Enter (commit)"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Fatalf("steps\n %q\nwant\n %q", got, want)
	}
	if steps := planOpening("", nil); len(steps) != 2 {
		t.Fatalf("an opening without a prompt: %d steps; want the mode switch alone", len(steps))
	}
}
