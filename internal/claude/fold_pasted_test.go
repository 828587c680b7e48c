package claude

import (
	"encoding/json"
	"testing"

	"lab/internal/conv"
)

func TestFoldUnwrapsPastedPrompts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{`<pasted_content id="p1">line one` + "\n" + `line two</pasted_content id="p1">`, "line one\nline two"},
		{`see: <pasted_content id="x-2">a</pasted_content id="x-2"> and <pasted_content>b</pasted_content>`, "see: a and b"},
	} {
		line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": tc.in}})
		f := NewFold()
		f.Write(append(line, '\n'))
		msgs, _ := f.Messages(0, 0, 0)
		if len(msgs) != 1 || msgs[0].Kind != conv.KindText || msgs[0].Text != tc.want {
			t.Errorf("prompt %q: got %+v; want text %q", tc.in, msgs, tc.want)
		}
	}
}
