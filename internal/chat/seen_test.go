package chat

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"lab/internal/conv"
)

// at restamps a transcript line with t, so a test can say when it was written.
func at(line string, t time.Time) string {
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		panic(err)
	}
	m["timestamp"] = t.UTC().Format(time.RFC3339Nano)
	return mustJSON(m)
}

func (f *liveFixture) post(t *testing.T, path string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", f.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A finished turn that a page showed since drops to "seen" (announced as
// run.changed, for every other page), and goes back up to "your turn" when
// the next turn ends.
func TestSeenQuietsAFinishedTurnUntilTheNextOne(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	t0 := time.Now().Add(-time.Minute)
	appendLines(t, f.transcript, at(lineUser("hello"), t0), at(lineAssistantText("done", "end_turn"), t0.Add(time.Second)))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateNeedsInput })
	if r := f.run(t); r.Attention != conv.AttentionYourTurn {
		t.Fatalf("after the turn: attention %s; want your_turn", r.Attention)
	}

	if code := f.post(t, "/api/v1/runs/run-1/seen"); code != http.StatusNoContent {
		t.Fatalf("POST seen: status %d; want 204", code)
	}
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.RunID == "run-1" })
	r := f.run(t)
	if r.Attention != conv.AttentionSeen || r.SeenAt == nil || r.SeenAt.Before(*r.LastActivity) {
		t.Fatalf("after seen: attention %s, seen_at %v, last activity %v; want seen", r.Attention, r.SeenAt, r.LastActivity)
	}
	// Seeing it again changes nothing and announces nothing.
	if code := f.post(t, "/api/v1/runs/run-1/seen"); code != http.StatusNoContent {
		t.Fatalf("POST seen again: status %d", code)
	}

	// The operator replies from somewhere; the next turn ends later.
	t1 := time.Now().Add(2 * time.Second)
	appendLines(t, f.transcript, at(lineUser("more"), t1))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateWorking })
	if r := f.run(t); r.Attention != conv.AttentionWorking {
		t.Fatalf("working: attention %s", r.Attention)
	}
	appendLines(t, f.transcript, at(lineAssistantText("done again", "end_turn"), t1.Add(time.Second)))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateNeedsInput })
	if r := f.run(t); r.Attention != conv.AttentionYourTurn {
		t.Fatalf("after the next turn: attention %s; want your_turn again", r.Attention)
	}

	if code := f.post(t, "/api/v1/runs/nope/seen"); code != http.StatusNotFound {
		t.Fatalf("POST seen for an unknown run: status %d; want 404", code)
	}
}

// A message stamped ahead of lab's clock is not news once seen: the mark
// is the later of now and the last activity.
func TestSeenCoversAMessageStampedAhead(t *testing.T) {
	f := newLiveFixture(t)
	events := f.events(t)
	ahead := time.Now().Add(time.Hour)
	appendLines(t, f.transcript, at(lineUser("hello"), ahead), at(lineAssistantText("done", "end_turn"), ahead))
	waitEvent(t, events, func(e conv.Event) bool { return e.Type == conv.EventRunChanged && e.State == conv.StateNeedsInput })
	f.post(t, "/api/v1/runs/run-1/seen")
	if r := f.run(t); r.Attention != conv.AttentionSeen {
		t.Fatalf("attention %s; want seen", r.Attention)
	}
}
