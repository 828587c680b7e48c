package chat

import (
	"encoding/json"
	"os"
	"testing"
)

// Transcript lines in 2.1.328 shapes, for the live-layer tests.

func lineUser(text string) string {
	return mustJSON(map[string]any{"type": "user", "sessionId": "s1", "cwd": "/w", "timestamp": "2026-11-30T10:00:00Z",
		"message": map[string]any{"role": "user", "content": text}})
}

func lineAssistantText(text, stop string) string {
	var sr any
	if stop != "" {
		sr = stop
	}
	return mustJSON(map[string]any{"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-30T10:00:01Z",
		"message": map[string]any{"role": "assistant", "stop_reason": sr, "content": []any{map[string]any{"type": "text", "text": text}}}})
}

func lineToolUse(id, name string, input any) string {
	return mustJSON(map[string]any{"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-30T10:00:02Z",
		"message": map[string]any{"role": "assistant", "stop_reason": "tool_use", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
}

func lineToolResult(id, content string, extra map[string]any) string {
	l := map[string]any{"type": "user", "sessionId": "s1", "timestamp": "2026-11-30T10:00:03Z",
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}}}}
	for k, v := range extra {
		l[k] = v
	}
	return mustJSON(l)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func appendLines(t testing.TB, path string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			t.Fatal(err)
		}
	}
}

var singleQuestion = map[string]any{"questions": []any{map[string]any{
	"question": "Which database?", "header": "DB", "multiSelect": false,
	"options": []any{map[string]any{"label": "SQLite"}, map[string]any{"label": "PostgreSQL"}},
}}}
