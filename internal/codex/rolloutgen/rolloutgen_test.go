package rolloutgen_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"lab/internal/codex"
	"lab/internal/codex/rolloutgen"
	"lab/internal/foldkit/foldtest"
)

func TestWriteShapes(t *testing.T) {
	opt := rolloutgen.Options{Size: 4 << 20, Seed: 7, MaxOutput: 200 << 10}
	lines := foldtest.CheckGenerator(t, opt.Size, func(w io.Writer) (int64, error) { return rolloutgen.Write(w, opt) }, codex.NewFold())
	types := map[string]int{}
	for _, line := range lines {
		var v struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("invalid line %.80q: %v", line, err)
		}
		if !bytes.HasPrefix(line, []byte(`{"timestamp":"`)) {
			t.Errorf("line %.60q does not start with its timestamp", line)
		}
		types[v.Type+"/"+v.Payload.Type]++
	}
	for _, typ := range []string{"session_meta/", "turn_context/", "world_state/", "token_usage_record/", "retained_context/verified_answer",
		"event_msg/task_started", "event_msg/item_completed", "event_msg/task_complete", "response_item/message", "response_item/reasoning",
		"response_item/function_call", "response_item/function_call_output", "response_item/custom_tool_call"} {
		if types[typ] == 0 {
			t.Errorf("no %s line", typ)
		}
	}
}
