package main

import (
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/codextest"
	"lab/internal/conv"
)

// Live text with both real CLIs: while a slow turn streams, a client
// reading the chat gets the words the CLI draws, growing, beside the
// stream; the transcript's message replaces them, never both at once. An
// interrupted turn keeps what was shown: Claude Code records its partial
// text; Codex records none, so lab keeps its own copy, served after the
// prompt it followed, also once the run ended.
func TestLiveTextWhileATurnStreams(t *testing.T) {
	for _, provider := range []string{"claude", "codex"} {
		t.Run(provider, func(t *testing.T) {
			if provider == "codex" {
				codextest.CLI(t)
			}
			lab := startLab(t)
			var run conv.Run
			if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Provider: provider, Cwd: t.TempDir(), Prompt: "lab:slow tell me"}, &run); code != 201 {
				t.Fatalf("start: %d\n%s", code, lab.log)
			}
			// Read as the web app does: the whole chat, often.
			var grown []string
			var final conv.Page
			claudetest.Poll(t, 90*time.Second, "the streamed turn to end", func() bool {
				p := lab.page(run.ID)
				if lt := p.LiveText; lt != nil {
					for _, m := range p.Messages {
						if m.Seq > lt.AfterSeq && m.Kind == conv.KindText && m.Role == conv.RoleAssistant {
							t.Fatalf("live text %q served beside the message that replaces it (seq %d)", lt.Text, m.Seq)
						}
					}
					if p.State != conv.StateWorking {
						t.Fatalf("live text served in state %s", p.State)
					}
					if n := len(grown); n == 0 || grown[n-1] != lt.Text {
						grown = append(grown, lt.Text)
					}
				}
				final = p
				return p.State == conv.StateNeedsInput && strings.Contains(lastAssistant(p), "finished.")
			})
			if len(grown) < 3 {
				t.Fatalf("live text took %d values (%q); want it to grow while the turn streamed", len(grown), grown)
			}
			for i := 1; i < len(grown); i++ {
				if !strings.HasPrefix(squash(grown[i]), squash(grown[i-1])) {
					t.Fatalf("live text went from %q to %q; want it to grow", grown[i-1], grown[i])
				}
			}
			last := grown[len(grown)-1]
			if !strings.HasPrefix(last, "Streaming slowly: word1 word2") || !strings.Contains(squash(lastAssistant(final)), squash(last)) {
				t.Fatalf("last live text %q; want the start of the final message %q", last, lastAssistant(final))
			}
			if final.LiveText != nil {
				t.Fatalf("live text %+v after the turn ended; want none", final.LiveText)
			}

			// Interrupted while streaming.
			lab.reply(run.ID, "lab:slow once more")
			var shown string
			claudetest.Poll(t, 60*time.Second, "live text of the second turn", func() bool {
				p := lab.page(run.ID)
				if p.LiveText != nil && strings.Contains(p.LiveText.Text, "word20 ") {
					shown = p.LiveText.Text
					return true
				}
				return false
			})
			if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/interrupt", nil, nil); code != 204 {
				t.Fatalf("interrupt: %d", code)
			}
			p := lab.waitPage(run.ID, "the interrupted turn over", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
			prompt := 0
			for _, m := range p.Messages {
				if m.Kind == conv.KindText && m.Role == conv.RoleUser && m.Text == "lab:slow once more" {
					prompt = m.Seq
				}
			}
			if provider == "claude" {
				// The CLI records what it had streamed: no copy of lab's.
				if m := p.Messages[len(p.Messages)-2]; m.Seq <= prompt || !strings.Contains(squash(lastAssistant(p)), squash(shown)) {
					t.Fatalf("claude's interrupted text %q; want it to hold what was shown, %q", lastAssistant(p), shown)
				}
				time.Sleep(keepWait) // lab's copy would be kept by now
				if p := lab.page(run.ID); len(p.Partials) != 0 {
					t.Fatalf("partials %+v; want none (the transcript has the text)", p.Partials)
				}
				return
			}
			for _, m := range p.Messages {
				if m.Seq > prompt && m.Kind == conv.KindText {
					t.Fatalf("codex recorded %+v after the interrupted prompt; want no partial text (see docs/codex-facts.md)", m)
				}
			}
			p = lab.waitPage(run.ID, "lab's copy of the interrupted text", func(p conv.Page) bool { return len(p.Partials) > 0 })
			part := p.Partials[0]
			if part.AfterSeq != prompt || !strings.HasPrefix(squash(part.Text), squash(shown)) {
				t.Fatalf("partial %+v; want what was shown (%q) after the prompt at seq %d", part, shown, prompt)
			}
			lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil)
			if p := lab.page(run.ID); p.State != conv.StateEnded || len(p.Partials) != 1 || p.Partials[0].Text != part.Text {
				t.Fatalf("ended run: state %s, partials %+v; want the copy kept", p.State, p.Partials)
			}
		})
	}
}

// keepWait is longer than the grace lab gives a CLI to record a turn's
// text before it keeps its own copy (chat.keepGrace, 3 s).
const keepWait = 5 * time.Second

// squash keeps letters and digits: the pane draws what the transcript
// holds with other breaks and markup.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
