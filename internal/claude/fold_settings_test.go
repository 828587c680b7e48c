package claude

import (
	"testing"

	"lab/internal/conv"
)

// TestFoldSettings: the mode comes from prompts' user lines and
// permission-mode lines, the model from the assistant lines that answered
// (not a subagent's, not a synthetic error's).
func TestFoldSettings(t *testing.T) {
	modeLine := func(m string) string {
		return fxLine(t, fxObj{"type": "permission-mode", "permissionMode": m, "sessionId": "sess-1"})
	}
	answered := func(model string, extra fxObj) string {
		o := fxObj{"parentUuid": nil, "isSidechain": false, "type": "assistant", "uuid": "a", "timestamp": "2026-07-08T10:00:01.000Z",
			"message": fxObj{"model": model, "role": "assistant", "stop_reason": "end_turn", "content": []fxObj{fxText("hi")}}}
		for k, v := range extra {
			o[k] = v
		}
		return fxLine(t, o)
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  conv.Settings
	}{
		{"nothing recorded", []string{fxUser(t, "go", nil)}, conv.Settings{}},
		{"the prompt's mode, the answer's model",
			[]string{modeLine("auto"), fxUser(t, "go", fxObj{"permissionMode": "acceptEdits"}), answered("claude-opus-5-5", nil)},
			conv.Settings{Mode: "acceptEdits", Model: "claude-opus-5-5"}},
		{"a later permission-mode line",
			[]string{fxUser(t, "go", fxObj{"permissionMode": "default"}), answered("claude-opus-5-5", nil), modeLine("plan")},
			conv.Settings{Mode: "plan", Model: "claude-opus-5-5"}},
		{"a switched model",
			[]string{answered("claude-opus-5-5", nil), fxUser(t, "again", nil), answered("claude-sonnet-5-5", nil)},
			conv.Settings{Model: "claude-sonnet-5-5"}},
		{"not a subagent's or a synthetic error's",
			[]string{answered("claude-opus-5-5", nil), answered("claude-haiku-5-5", fxObj{"isSidechain": true}),
				answered("<synthetic>", nil), answered("claude-fable", fxObj{"isApiErrorMessage": true})},
			conv.Settings{Model: "claude-opus-5-5"}},
	} {
		if got := fxFold(c.lines...).Settings(); got != c.want {
			t.Errorf("%s: got %+v; want %+v", c.name, got, c.want)
		}
	}
}
