package rolloutgen_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"lab/internal/codex"
	"lab/internal/codex/rolloutgen"
	"lab/internal/conv"
)

func TestWriteShapes(t *testing.T) {
	opt := rolloutgen.Options{Size: 4 << 20, Seed: 7, MaxOutput: 200 << 10}
	var a, b bytes.Buffer
	n, err := rolloutgen.Write(&a, opt)
	if err != nil || n != int64(a.Len()) || n < opt.Size {
		t.Fatalf("Write = %d, %v for %d buffered bytes; want at least %d and no error", n, err, a.Len(), opt.Size)
	}
	if _, err := rolloutgen.Write(&b, opt); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two runs with the same options differ (err %v)", err)
	}
	types := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n")) {
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
	f := codex.NewFold()
	f.Write(a.Bytes())
	msgs, _ := f.Messages(0, 0, 0)
	kinds := map[conv.Kind]int{}
	for _, m := range msgs {
		kinds[m.Kind]++
	}
	if f.SkippedLines() != 0 || kinds[conv.KindDialog] == 0 || kinds[conv.KindTool] == 0 || kinds[conv.KindThinking] == 0 || f.State() != conv.StateNeedsInput {
		t.Errorf("fold: %d skipped, kinds %v, state %s; want 0 skipped, dialogs, tools, thinking, needs_input", f.SkippedLines(), kinds, f.State())
	}
}
