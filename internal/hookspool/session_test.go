package hookspool

import (
	"strings"
	"testing"
)

type testEvent struct {
	Event
	Extra string `json:"extra"`
}

func ev(name, session, id, tool string) *testEvent {
	e := &testEvent{}
	e.Name, e.File, e.SessionID, e.ToolUseID, e.ToolName = name, name+"."+id, session, id, tool
	return e
}

func ids(es []*testEvent) string {
	var out []string
	for _, e := range es {
		out = append(out, e.ToolUseID)
	}
	return strings.Join(out, ",")
}

// The current session is the latest SessionStart's; its calls open on
// PreToolUse (unless retired), close on PostToolUse, and a Stop or a
// prompt closes them all.
func TestWalk(t *testing.T) {
	evs := []*testEvent{
		ev(SessionStart, "A", "", ""),
		ev(PreToolUse, "A", "a1", "Bash"), // the old session's: not walked
		ev(SessionStart, "B", "", ""),
		ev(PreToolUse, "B", "b1", "Ask"),
		ev(PreToolUse, "B", "b2", "Bash"),
		ev(PreToolUse, "B", "gone", "Bash"),
		ev(PostToolUse, "B", "b2", "Bash"),
		ev(PreToolUse, "B", "b2", "Bash"), // started again: once in Open, at its first place
		ev(PreToolUse, "B", "b3", "Bash"),
		ev(PermissionRequest, "B", "", "Bash"),
	}
	var visited []string
	var newest string
	cur, calls, keep := Walk(evs, map[string]bool{"gone": true}, func(e *testEvent, c *Calls[*testEvent]) {
		visited = append(visited, e.Name)
		if e.Name == PermissionRequest {
			if t, ok := c.Newest(func(t *testEvent) bool { return t.ToolName == e.ToolName }); ok {
				newest = t.ToolUseID
			}
		}
	})
	if cur.SessionID != "B" || cur.Events != len(evs) || len(visited) != 8 || visited[0] != SessionStart {
		t.Fatalf("session %q, %d events, visited %v; want B's 8 events of 10", cur.SessionID, cur.Events, visited)
	}
	if got := ids(calls.Open()); got != "b1,b2,b3" {
		t.Fatalf("open calls %s; want b1,b2,b3 (the retired one left out)", got)
	}
	if newest != "b3" {
		t.Fatalf("newest Bash call %q; want b3", newest)
	}
	if !keep[SessionStart+"."] || len(keep) != 1 {
		t.Fatalf("keep %v; want only the SessionStart before a prompt or a stop", keep)
	}

	evs = append(evs, ev(Stop, "B", "", ""), ev(UserPromptSubmit, "B", "", ""))
	cur, calls, keep = Walk(evs, nil, func(*testEvent, *Calls[*testEvent]) {})
	if len(calls.Open()) != 0 || cur.LastStop == nil || cur.LastPrompt == nil || !keep[Stop+"."] || !keep[UserPromptSubmit+"."] {
		t.Fatalf("after a stop and a prompt: open %s, last stop %v, prompt %v, keep %v", ids(calls.Open()), cur.LastStop, cur.LastPrompt, keep)
	}
}

// Without a SessionStart the latest event naming a session wins; with no
// session at all nothing is walked.
func TestWalkWithoutAStart(t *testing.T) {
	cur, _, _ := Walk([]*testEvent{ev(Stop, "A", "", ""), ev(PreToolUse, "", "x", "Bash"), ev(Stop, "C", "", "")}, nil, func(*testEvent, *Calls[*testEvent]) {})
	if cur.SessionID != "C" || cur.Source != "" {
		t.Fatalf("got session %q; want C", cur.SessionID)
	}
	visited := false
	cur, _, keep := Walk([]*testEvent{ev(PreToolUse, "", "x", "Bash")}, nil, func(*testEvent, *Calls[*testEvent]) { visited = true })
	if cur.SessionID != "" || cur.Events != 1 || visited || len(keep) != 0 {
		t.Fatalf("got %+v, visited %v, keep %v; want nothing but the count", cur, visited, keep)
	}
}

// Parse fills the common fields and the adapter's own; a bad file is an
// empty event that still has its name.
func TestParse(t *testing.T) {
	k, _ := ParseName("PreToolUse.1700000000000000000.7.json")
	e := Parse[testEvent](k, []byte(`{"session_id":"s","tool_use_id":"t","extra":"x"}`))
	if e.SessionID != "s" || e.ToolUseID != "t" || e.Extra != "x" || e.Name != PreToolUse || e.File != k.Name || e.Time.IsZero() || len(e.Raw) == 0 {
		t.Fatalf("got %+v", e)
	}
	bad := Parse[testEvent](k, []byte(`{"session_id":`))
	if bad.SessionID != "" || bad.Name != PreToolUse {
		t.Fatalf("got %+v for a torn file; want an empty event with its name", bad)
	}
}
