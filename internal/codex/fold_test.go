package codex

import (
	"encoding/json"
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// fxObj is a JSON object for building fixture lines.
type fxObj = map[string]any

// fxLine renders one rollout line of type typ.
func fxLine(t testing.TB, typ string, payload fxObj) string {
	t.Helper()
	b, err := json.Marshal(fxObj{"timestamp": "2026-12-01T10:00:00.000Z", "type": typ, "payload": payload})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func fxMeta(t testing.TB, provenance string) fxObj {
	if provenance == "" {
		return nil
	}
	return fxObj{"content_item_metadata": []any{fxObj{"provenance": fxObj{"type": provenance}}}}
}

// fxUser is a prompt the operator typed.
func fxUser(t testing.TB, text string, extra fxObj) string {
	p := fxObj{"type": "message", "role": "user", "content": []any{fxObj{"type": "input_text", "text": text}},
		"internal_chat_message_metadata_passthrough": fxMeta(t, "user")}
	for k, v := range extra {
		p[k] = v
	}
	return fxLine(t, "response_item", p)
}

func fxAssistant(t testing.TB, id, text string) string {
	return fxLine(t, "response_item", fxObj{"type": "message", "role": "assistant", "id": id, "content": []any{fxObj{"type": "output_text", "text": text}}})
}

func fxCall(t testing.TB, id, name string, args any) string {
	b, _ := json.Marshal(args)
	return fxLine(t, "response_item", fxObj{"type": "function_call", "call_id": id, "name": name, "arguments": string(b)})
}

func fxOut(t testing.TB, id string, output any) string {
	return fxLine(t, "response_item", fxObj{"type": "function_call_output", "call_id": id, "output": output})
}

func fxEvent(t testing.TB, typ string, extra fxObj) string {
	p := fxObj{"type": typ}
	for k, v := range extra {
		p[k] = v
	}
	return fxLine(t, "event_msg", p)
}

func foldOf(t testing.TB, lines ...string) *Fold {
	t.Helper()
	return foldAll([]byte(strings.Join(lines, "")))
}

func messages(f *Fold) []conv.Message {
	m, _ := f.Messages(0, 0, 0)
	return m
}

func TestFoldPromptsAreToldFromInjectedContext(t *testing.T) {
	f := foldOf(t,
		fxLine(t, "response_item", fxObj{"type": "message", "role": "user",
			"content": []any{fxObj{"type": "input_text", "text": "<environment_context>x</environment_context>"}},
			"internal_chat_message_metadata_passthrough": fxMeta(t, "harness")}),
		fxLine(t, "response_item", fxObj{"type": "message", "role": "developer", "content": []any{fxObj{"type": "input_text", "text": "be careful"}}}),
		// A prompt that happens to look like a tag block is still a prompt
		// when the CLI says the user typed it.
		fxUser(t, "<note>typed by me</note>", nil),
		fxLine(t, "response_item", fxObj{"type": "message", "role": "user", "content": []any{
			fxObj{"type": "input_text", "text": "look"}, fxObj{"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}},
			"internal_chat_message_metadata_passthrough": fxMeta(t, "user")}),
	)
	got := messages(f)
	if len(got) != 2 || got[0].Text != "<note>typed by me</note>" || got[1].Text != "look" || len(got[1].Attachments) != 1 {
		t.Fatalf("got %+v; want the two typed prompts only", got)
	}
	if f.State() != conv.StateWorking {
		t.Fatalf("state %s after a prompt; want working", f.State())
	}
}

func TestFoldToolOutputs(t *testing.T) {
	long := strings.Repeat("x", foldkit.OutputMax+100)
	f := foldOf(t,
		fxUser(t, "go", nil),
		fxCall(t, "a", ToolExecCommand, fxObj{"cmd": "echo hi"}),
		fxOut(t, "a", "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n"),
		fxCall(t, "b", ToolExecCommand, fxObj{"cmd": "false"}),
		fxOut(t, "b", "Chunk ID: 2\nWall time: 0.0 seconds\nProcess exited with code 2\nOriginal token count: 0\nOutput:\n"+long),
		fxCall(t, "c", ToolExecCommand, fxObj{"cmd": "touch x"}),
		fxOut(t, "c", "Wall time: 1.0 seconds\naborted by user"),
		fxLine(t, "response_item", fxObj{"type": "custom_tool_call", "call_id": "d", "name": ToolApplyPatch, "input": "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Update File: b.txt\n@@\n-x\n+y\n*** End Patch\n"}),
		fxLine(t, "response_item", fxObj{"type": "custom_tool_call_output", "call_id": "d", "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nA a.txt\n"}),
		fxCall(t, "e", ToolUpdatePlan, fxObj{"plan": []any{fxObj{"step": "one", "status": "completed"}, fxObj{"step": "two", "status": "in_progress"}}}),
	)
	got := messages(f)
	tools := map[string]*conv.ToolCall{}
	for _, m := range got {
		if m.Tool != nil {
			tools[m.Tool.ID] = m.Tool
		}
	}
	cases := []struct {
		id, input, output string
		status            conv.ToolStatus
		bytes             int
	}{
		{"a", "echo hi", "hi\n", conv.ToolOK, 3},
		{"b", "false", long[:foldkit.OutputMax], conv.ToolError, len(long)},
		{"c", "touch x", "Wall time: 1.0 seconds\naborted by user", conv.ToolError, 38},
		{"d", "Add a.txt, Update b.txt", "Success. Updated the following files:\nA a.txt\n", conv.ToolOK, 46},
		{"e", "1/2 done: two", "", conv.ToolRunning, 0},
	}
	for _, c := range cases {
		tc := tools[c.id]
		if tc == nil || tc.Input != c.input || tc.Output != c.output || tc.Status != c.status || tc.OutputBytes != c.bytes || tc.OutputTruncated != (c.bytes > len(c.output)) {
			t.Errorf("tool %s = %+v; want input %q, status %s, output %q of %d bytes", c.id, tc, c.input, c.status, c.output, c.bytes)
		}
	}
	if r := f.Running(); r == nil || r.ID != "e" {
		t.Errorf("Running = %+v; want the update_plan call", r)
	}
	if !f.Resolved("a") || f.Resolved("e") || f.Resolved("nope") {
		t.Error("Resolved: want a resolved, e running, an unknown id unresolved")
	}
}

var formArgs = fxObj{"questions": []any{
	fxObj{"id": "color", "header": "Color", "question": "Which color?", "options": []any{fxObj{"label": "Red", "description": "Warm"}, fxObj{"label": "Blue", "description": "Cool"}}},
	fxObj{"id": "size", "header": "Size", "question": "Which size?", "options": []any{fxObj{"label": "Small", "description": ""}, fxObj{"label": "Large", "description": ""}}},
}}

func TestFoldQuestionOutcome(t *testing.T) {
	answers := `{"answers":{"size":{"answers":["None of the above","user_note: medium"]},"color":{"answers":["Blue","user_note: a darker one"]}}}`
	f := foldOf(t, fxUser(t, "ask", nil), fxCall(t, "q", ToolRequestUserInput, formArgs))
	if f.State() != conv.StateQuestion || f.PendingDialog() == nil || f.PendingDialog().ToolID != "q" || !f.PendingDialog().Answerable {
		t.Fatalf("state %s, pending %+v; want the question pending and answerable", f.State(), f.PendingDialog())
	}
	f.TakeBackpatch()
	f.Write([]byte(fxOut(t, "q", answers)))
	if f.TakeBackpatch() != 2 {
		t.Fatal("the answer did not back-patch the dialog at seq 2")
	}
	d := messages(f)[1].Dialog
	want := &conv.Outcome{Results: []conv.QuestionResult{
		{Question: "Which color?", Chosen: []string{"Blue"}, OtherText: "a darker one"},
		{Question: "Which size?", Chosen: []string{}, OtherText: "medium"},
	}}
	if got, _ := json.Marshal(d.Outcome); string(got) != string(mustJSON(t, want)) || d.Answerable {
		t.Fatalf("outcome %s, answerable %v; want %s, not answerable", got, d.Answerable, mustJSON(t, want))
	}
	if f.State() != conv.StateWorking {
		t.Fatalf("state %s after the answer; want working", f.State())
	}
	// An Escape records "aborted by user", a prompt dismisses an open one.
	for name, resolve := range map[string]string{
		"aborted": fxOut(t, "q", "aborted by user after 3.7s"),
		"prompt":  fxUser(t, "never mind", nil),
		"abort":   fxEvent(t, "turn_aborted", fxObj{"reason": "interrupted"}),
	} {
		f := foldOf(t, fxUser(t, "ask", nil), fxCall(t, "q", ToolRequestUserInput, formArgs), resolve)
		if o := messages(f)[1].Dialog.Outcome; o == nil || !o.Dismissed || o.Results != nil {
			t.Errorf("%s: outcome %+v; want dismissed", name, o)
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFoldPlanOutcomeFollowsTheNextTurnsMode(t *testing.T) {
	plan := fxAssistant(t, "msg_p", "Here.\n\n<proposed_plan>\n# P\n\n1. step\n</proposed_plan>")
	base := []string{fxEvent(t, "task_started", fxObj{"collaboration_mode_kind": "plan"}), fxUser(t, "plan it", nil), plan, fxEvent(t, "task_complete", nil)}
	f := foldOf(t, base...)
	msgs := messages(f)
	if len(msgs) != 3 || msgs[1].Text != "Here." || msgs[2].Dialog == nil || msgs[2].Dialog.Plan != "# P\n\n1. step" || msgs[2].Dialog.ToolID != "msg_p" {
		t.Fatalf("got %+v; want the prose, then the plan dialog", msgs)
	}
	if f.State() != conv.StateQuestion {
		t.Fatalf("state %s after a proposed plan; want question", f.State())
	}
	approve := foldOf(t, append(base, fxEvent(t, "task_started", fxObj{"collaboration_mode_kind": "default"}), fxUser(t, "Implement the plan.", nil))...)
	if o := messages(approve)[2].Dialog.Outcome; o == nil || !o.Approved {
		t.Fatalf("after a Default-mode prompt: outcome %+v; want approved", o)
	}
	stay := foldOf(t, append(base, fxEvent(t, "task_started", fxObj{"collaboration_mode_kind": "plan"}), fxUser(t, "make it smaller", nil))...)
	if o := messages(stay)[2].Dialog.Outcome; o == nil || o.Approved || o.Feedback != "make it smaller" {
		t.Fatalf("after a Plan-mode prompt: outcome %+v; want the prompt as feedback", o)
	}
}

func TestFoldStateFollowsTheTurnEvents(t *testing.T) {
	steps := []struct {
		line string
		want conv.State
	}{
		{fxLine(t, "session_meta", fxObj{"id": "s1"}), conv.StateIdle},
		{fxEvent(t, "task_started", nil), conv.StateWorking},
		{fxUser(t, "hi", nil), conv.StateWorking},
		{fxAssistant(t, "m", "thinking out loud, more to come"), conv.StateWorking},
		{fxEvent(t, "task_complete", nil), conv.StateNeedsInput},
		{fxEvent(t, "warning", fxObj{"message": "careful"}), conv.StateNeedsInput},
		{fxEvent(t, "task_started", nil), conv.StateWorking},
		{fxEvent(t, "error", fxObj{"message": "boom"}), conv.StateNeedsInput},
		{fxEvent(t, "task_started", nil), conv.StateWorking},
		{fxEvent(t, "turn_aborted", fxObj{"reason": "interrupted"}), conv.StateNeedsInput},
	}
	f := NewFold()
	for i, s := range steps {
		f.Write([]byte(s.line))
		if f.State() != s.want {
			t.Fatalf("after line %d: state %s; want %s", i, f.State(), s.want)
		}
	}
	if f.SessionID() != "s1" {
		t.Fatalf("SessionID %q; want s1", f.SessionID())
	}
	var notes []string
	for _, m := range messages(f) {
		if m.Lifecycle != nil {
			notes = append(notes, string(m.Lifecycle.Level)+":"+m.Lifecycle.Text)
		}
	}
	if strings.Join(notes, "|") != "warning:careful|error:boom|info:Interrupted" {
		t.Fatalf("lifecycle notes %q", notes)
	}
}

// The intent lookup turns a recorded answer that differs from what lab
// sent into a warning right after the dialog.
func TestFoldWarnsOnAnswerDesync(t *testing.T) {
	f := NewFold()
	f.SetIntents(func(id string) (*conv.Outcome, bool) {
		return &conv.Outcome{Results: []conv.QuestionResult{{Question: "Which color?", Chosen: []string{"Red"}}, {Question: "Which size?", Chosen: []string{"Small"}}}}, id == "q"
	})
	f.Write([]byte(fxUser(t, "ask", nil) + fxCall(t, "q", ToolRequestUserInput, formArgs) +
		fxOut(t, "q", `{"answers":{"color":{"answers":["Blue"]},"size":{"answers":["Small"]}}}`)))
	msgs := messages(f)
	last := msgs[len(msgs)-1]
	if last.Lifecycle == nil || last.Lifecycle.Level != conv.LevelWarning || !strings.Contains(last.Lifecycle.Text, `"Blue"`) {
		t.Fatalf("last message %+v; want a desync warning naming the recorded answer", last)
	}
}

func TestFoldPeek(t *testing.T) {
	cases := []struct {
		line string
		want foldkit.Verdict
	}{
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"world_state","payload":{}}`, foldkit.PeekSkip},
		// Read for the settings and the usage meter: the model, the
		// sandbox, the token counts.
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"turn_context","payload":{}}`, foldkit.PeekFull},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"event_msg","payload":{"type":"thread_settings_applied"}}`, foldkit.PeekFull},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"event_msg","payload":{"type":"token_count"}}`, foldkit.PeekFull},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"token_usage_record","payload":{}}`, foldkit.PeekSkip},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"event_msg","payload":{"type":"item_completed"}}`, foldkit.PeekSkip},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"event_msg","payload":{"type":"task_complete"}}`, foldkit.PeekFull},
		{`{"timestamp":"2026-12-01T10:00:00Z","ordinal":3,"type":"response_item","payload":{}}`, foldkit.PeekFull},
		{`{"timestamp":"2026-12-01T10:00:00Z","type":"session_meta","payload":{}}`, foldkit.PeekFull},
		{`{"payload":{"type":"token_count"},"type":"event_msg"}`, foldkit.PeekFull}, // not the CLI's key order: read it all
		{`{"timestamp":"a\"b","type":"world_state"}`, foldkit.PeekSkip},
		{`[1]`, foldkit.PeekFull},
	}
	for _, c := range cases {
		if got := foldPeek([]byte(c.line)); got != c.want {
			t.Errorf("foldPeek(%s) = %d; want %d", c.line, got, c.want)
		}
		// Every prefix either waits or already gives the final verdict.
		for i := 0; i < len(c.line); i++ {
			if got := foldPeek([]byte(c.line[:i])); got != foldkit.PeekMore && got != c.want {
				t.Fatalf("foldPeek(%q) = %d; want %d or more bytes", c.line[:i], got, c.want)
			}
		}
	}
}

// A bookkeeping line fed in pieces is dropped as it streams in: the held
// buffer never grows to its size.
func TestFoldSkipsHeldBookkeeping(t *testing.T) {
	f := NewFold()
	f.Write([]byte(`{"timestamp":"2026-12-01T10:00:00Z","ordinal":9,"type":"event_msg","payload":{"type":"item_completed","item":{"aggregated_output":"`))
	chunk := []byte(strings.Repeat("y", 64<<10))
	for range 100 {
		f.Write(chunk)
	}
	if _, c := f.Held(); c > 4096 || !f.Skipping() {
		t.Fatalf("holding %d bytes, skipping %v; want the line dropped", c, f.Skipping())
	}
	f.Write([]byte("\"}}}\n" + fxUser(t, "after", nil)))
	if got := messages(f); len(got) != 1 || got[0].Text != "after" || f.Lines() != 2 || f.SkippedLines() != 0 {
		t.Fatalf("got %+v after %d lines (%d skipped); want the prompt after it", got, f.Lines(), f.SkippedLines())
	}
}
