package fakeclaudeapi

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCompactionRequest: the CLI's compaction request (its instructions
// as the newest user message, whatever the conversation's scenario) is
// recorded as such and answered with a summary in the tags the CLI wants.
func TestCompactionRequest(t *testing.T) {
	s := New(Options{ChunkDelay: time.Millisecond})
	srv := httptest.NewServer(s)
	defer srv.Close()
	instructions := "CRITICAL: Respond with TEXT ONLY.\n\nYour task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests.\n\nYour entire response must be plain text: an <analysis> block followed by a <summary> block."
	r := readStream(t, post(t, srv.URL, body(userText("lab:bash go"), assistantTool("toolu_1", "Bash"), toolResult("toolu_1", "ok", false),
		map[string]any{"role": "user", "content": instructions})))
	text := r.blocks[0]["text"].(string)
	if !strings.Contains(text, "<summary>") || !strings.Contains(text, "</summary>") || r.stop != "end_turn" {
		t.Fatalf("answered %q (%s); want a summary in <summary> tags", text, r.stop)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Scenario != ScenarioCompact {
		t.Fatalf("recorded %+v; want one request of scenario %s", reqs, ScenarioCompact)
	}
	// A prompt that merely mentions a summary is not one.
	readStream(t, post(t, srv.URL, body(userText("lab:text write a summary of the conversation so far"))))
	if got := s.Requests()[1].Scenario; got != "text" {
		t.Fatalf("a prompt about summaries played %q; want text", got)
	}
}
