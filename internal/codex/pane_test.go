package codex

import (
	"os"
	"strings"
	"testing"
)

// statusLines are what the TUI draws under its input box.
const statusLines = "\n  gpt-5.5 default · /tmp/lab/work · Scripted session\n  ← for agents · ? for shortcuts"

func TestParsePrompt(t *testing.T) {
	history := "  >_ OpenAI Codex (v0.171.0)\n\n› an earlier prompt\n\n• An earlier reply.\n\n"
	cases := []struct {
		name, pane string
		ok         bool
		text       string
		empty      bool
	}{
		{"placeholder", history + "› Ask Codex to do anything\n" + statusLines, true, "", true},
		{"typed", history + "› fix the tests\n" + statusLines, true, "fix the tests", false},
		{"multi-line", history + "› line one\n  line two\n  line three\n" + statusLines, true, "line one\nline two\nline three", false},
		{"collapsed paste", history + "› [Pasted Content 1500 chars]\n" + statusLines, true, "[Pasted Content 1500 chars]", false},
		{"a blank line inside", history + "› read this\n\n  [Attached file: /u/notes.txt]\n" + statusLines, true, "read this\n\n[Attached file: /u/notes.txt]", false},
		{"images attached", history + "› [Image #1] [Image #2] look\n" + statusLines, true, "[Image #1] [Image #2] look", false},
		{"an image alone", history + "› [Image #1]\n" + statusLines, true, "[Image #1]", false},
		{"busy, queueing", history + "› typed while busy\n\n  gpt-5.5 default · /tmp/lab/work\n  tab to queue message", true, "typed while busy", false},
		{"no status line", history + "› something\n", false, "", false},
		{"nothing", "", false, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, ok := ParsePrompt(c.pane)
			if ok != c.ok || b.Text != c.text || (ok && b.Empty() != c.empty) {
				t.Fatalf("ParsePrompt = %+v, %v; want %q, %v (empty %v)", b, ok, c.text, c.ok, c.empty)
			}
		})
	}
	// A picker has the focus: no input box, even though a › row shows.
	for _, f := range []string{"single_pending", "plan_pending", "permission_pending"} {
		pane, err := os.ReadFile("testdata/captured/" + f + ".pane.txt")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ParsePrompt(string(pane)); ok {
			t.Errorf("%s: ParsePrompt found an input box on a picker", f)
		}
	}
}

func TestPromptBoxHolds(t *testing.T) {
	long := strings.Repeat("é", 1500)
	cases := []struct {
		box, text string
		want      bool
	}{
		{"fix the tests", "fix the tests", true},
		{"fix the\ntests", "fix the tests", true}, // wrapped
		{"fix the tests", "fix the test", false},
		{"[Pasted Content 1500 chars]", long, true},
		{"[Pasted Content 1499 chars]", long, false},
		{"[Image #1] [Image #2] look", "look", true}, // attachments aside
		{"[Image #1] [Image #2]", "", true},
		{"[Image #1] look", "[Image #1] look", true}, // typed as text
		{"[Image #1] look", "[Image #2] look", false},
	}
	for _, c := range cases {
		if got := (PromptBox{Text: c.box}).Holds(c.text); got != c.want {
			t.Errorf("Holds(%q) on %q = %v; want %v", c.text, c.box, got, c.want)
		}
	}
}

func TestParseScreenIgnoresHistory(t *testing.T) {
	// An answered question stays in the chat above as history; a numbered
	// list in prose is not a picker; a title without rows is not either.
	pane := "• Questions 1/1 answered\n  • Which database should we use?\n    answer: PostgreSQL\n\n" +
		"• Steps:\n  1. Build it\n  2. Test it\n\n  Implement this plan?\n\n" +
		"› Ask Codex to do anything\n" + statusLines
	if s := ParseScreen(pane); s.Kind != ScreenNone {
		t.Fatalf("got %+v; want no picker", s)
	}
}

func TestLook(t *testing.T) {
	drv := driver{}
	idle := "  >_ OpenAI Codex (v0.171.0)\n\n› hi\n\n• Hello.\n\n  Worked for <1s • 03:22\n\n\n› Ask Codex to do anything\n" + statusLines
	interrupted := "› hi\n\n■ Conversation interrupted - use /feedback if something went wrong\n\n› Ask Codex to do anything\n" + statusLines
	working := "› hi\n\n• Working (0s • esc to interrupt)\n\n› Ask Codex to do anything\n" + statusLines
	cases := map[string]struct {
		pane string
		want string
	}{
		"question":        {pane(t, "single_pending"), "picker"},
		"plan":            {pane(t, "plan_pending"), "picker"},
		"approval":        {pane(t, "permission_pending"), "permission"},
		"edit approval":   {pane(t, "edit_approved"), "permission"},
		"idle after turn": {idle, "prompt"},
		"interrupted":     {interrupted, "prompt"},
		"working":         {working, "busy"},
		"text streaming":  {pane(t, "interrupted"), "busy"},
		"something else":  {"Loading…\n", "unknown"},
	}
	for name, c := range cases {
		if got := drv.Look(c.pane); string(got.Kind) != c.want {
			t.Errorf("%s: Look = %+v; want %s", name, got, c.want)
		}
	}
}

func TestGateAcceptsTheTrustScreenForItsFolder(t *testing.T) {
	screen := func(cursor int) string {
		rows := []string{"  1. Trust and continue", "  2. Back to Agent Command Center"}
		rows[cursor] = "› " + rows[cursor][2:]
		return "\n  Folder access\n  /tmp/lab/work\n  Trust this folder? Codex can read, edit, and run files here.\n\n" + strings.Join(rows, "\n") + "\n\n  enter continue · esc back\n"
	}
	drv := driver{}
	if k, ok := drv.Gate(screen(0), "/tmp/lab/work"); !ok || k != "Enter" {
		t.Fatalf("on Trust: %q, %v; want Enter", k, ok)
	}
	if k, ok := drv.Gate(screen(1), "/tmp/lab/work"); !ok || k != "Up" {
		t.Fatalf("on Back: %q, %v; want Up", k, ok)
	}
	if _, ok := drv.Gate(screen(0), "/tmp/other"); ok {
		t.Fatal("accepted the trust screen of another folder")
	}
	if _, ok := drv.Gate(pane(t, "single_pending"), "/tmp/lab/work"); ok {
		t.Fatal("took a question for the trust screen")
	}
}
