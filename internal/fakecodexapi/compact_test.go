package fakecodexapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCompactionRequest: the CLI's compaction request (no tools, its
// handoff instructions as the newest user message) is recorded as
// KindCompact and answered with a summary, not with a scenario's turn.
func TestCompactionRequest(t *testing.T) {
	s := New(Options{ChunkDelay: time.Millisecond})
	srv := httptest.NewServer(s)
	defer srv.Close()
	b := body(msg("user", "lab:bash go"), msg("user", "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task."))
	b["tools"] = []any{}
	r := readStream(t, post(t, srv.URL, b))
	last, _ := json.Marshal(r.items[len(r.items)-1])
	if !strings.Contains(string(last), "Handoff summary") {
		t.Fatalf("answered %s; want the handoff summary", last)
	}
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].Kind != KindCompact || reqs[0].Scenario != "" {
		t.Fatalf("recorded %+v; want one compaction request outside any scenario", reqs)
	}
}
