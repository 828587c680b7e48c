package claude

import (
	"encoding/json"
	"strings"
	"testing"
)

// Builders for transcript lines in the 2.1.328 shapes, for tests that need
// a few lines rather than a foldFixture file.

type fxObj = map[string]any

func fxLine(t testing.TB, o fxObj) string {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func fxUser(t testing.TB, content any, extra fxObj) string {
	o := fxObj{"parentUuid": nil, "isSidechain": false, "type": "user",
		"message": fxObj{"role": "user", "content": content},
		"uuid":    "u", "timestamp": "2026-07-08T10:00:00.000Z", "sessionId": "sess-1"}
	for k, v := range extra {
		o[k] = v
	}
	return fxLine(t, o)
}

func fxAssistant(t testing.TB, stop any, blocks ...fxObj) string {
	return fxLine(t, fxObj{"parentUuid": nil, "isSidechain": false,
		"message": fxObj{"content": blocks, "id": "msg_1", "role": "assistant", "stop_reason": stop, "type": "message"},
		"type":    "assistant", "uuid": "a", "timestamp": "2026-07-08T10:00:01.000Z", "sessionId": "sess-1"})
}

func fxSystem(t testing.TB, subtype string, extra fxObj) string {
	o := fxObj{"parentUuid": nil, "isSidechain": false, "type": "system", "subtype": subtype,
		"timestamp": "2026-07-08T10:00:02.000Z", "uuid": "s", "isMeta": false}
	for k, v := range extra {
		o[k] = v
	}
	return fxLine(t, o)
}

func fxText(s string) fxObj { return fxObj{"type": "text", "text": s} }

func fxToolUse(id, name string, input fxObj) fxObj {
	return fxObj{"type": "tool_use", "id": id, "name": name, "input": input}
}

func fxResult(t testing.TB, id string, content any, isError bool, extra fxObj) string {
	blk := fxObj{"type": "tool_result", "tool_use_id": id, "content": content}
	if isError {
		blk["is_error"] = true
	}
	return fxUser(t, []fxObj{blk}, extra)
}

var (
	fxQDB = fxObj{"question": "Which database should we use?", "header": "Database", "multiSelect": false,
		"options": []fxObj{{"label": "SQLite", "description": "Embedded"}, {"label": "PostgreSQL"}, {"label": "MySQL"}}}
	fxQTop = fxObj{"question": "Which toppings do you want?", "header": "Toppings", "multiSelect": true,
		"options": []fxObj{{"label": "Cheese"}, {"label": "Olives"}, {"label": "Salt, pepper"}, {"label": "Salt"}}}
)

func fxAsk(t testing.TB, id string, qs ...fxObj) string {
	return fxAssistant(t, "tool_use", fxToolUse(id, ToolAskUserQuestion, fxObj{"questions": qs}))
}

func fxPlan(t testing.TB, id, plan string) string {
	return fxAssistant(t, "tool_use", fxToolUse(id, ToolExitPlanMode, fxObj{"plan": plan}))
}

func fxAnswered(t testing.TB, id string, answers fxObj) string {
	return fxResult(t, id, "Your questions have been answered.", false,
		fxObj{"toolUseResult": fxObj{"questions": []fxObj{}, "answers": answers, "annotations": fxObj{}}})
}

func fxFold(lines ...string) *Fold {
	f := NewFold()
	f.Write([]byte(strings.Join(lines, "")))
	return f
}
