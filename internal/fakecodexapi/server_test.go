package fakecodexapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lab/internal/fakeapi/fakeapitest"
)

// reply is a response reassembled from its server-sent events.
type reply struct {
	events []string
	items  []map[string]any // the items of response.output_item.done, in order
	deltas map[string]string
	id     string
}

func post(t *testing.T, url string, body any) *http.Response {
	return fakeapitest.Post(t, url+"/v1/responses", body)
}

// readStream parses the SSE body, checking each event's name against its
// type and the deltas against the finished items.
func readStream(t *testing.T, resp *http.Response) reply {
	t.Helper()
	r := reply{deltas: map[string]string{}}
	seq := 0.0
	fakeapitest.Events(t, resp, func(name string, data map[string]any) {
		if data["sequence_number"] != seq {
			t.Fatalf("event %q has sequence_number %v; want %v", name, data["sequence_number"], seq)
		}
		seq++
		r.events = append(r.events, name)
		switch name {
		case "response.created":
			r.id = data["response"].(map[string]any)["id"].(string)
		case "response.output_item.done":
			r.items = append(r.items, data["item"].(map[string]any))
		case "response.output_text.delta", "response.function_call_arguments.delta", "response.custom_tool_call_input.delta", "response.reasoning_summary_text.delta":
			r.deltas[data["item_id"].(string)] += data["delta"].(string)
		case "response.completed":
			resp := data["response"].(map[string]any)
			if resp["id"] != r.id || resp["status"] != "completed" || resp["usage"] == nil {
				t.Fatalf("response.completed %v; want the created id, completed, usage", resp)
			}
		}
	})
	for _, it := range r.items {
		id := it["id"].(string)
		var whole string
		switch it["type"] {
		case "message":
			whole = it["content"].([]any)[0].(map[string]any)["text"].(string)
		case "function_call":
			whole = it["arguments"].(string)
		case "custom_tool_call":
			whole = it["input"].(string)
		case "reasoning":
			whole = it["summary"].([]any)[0].(map[string]any)["text"].(string)
		}
		if r.deltas[id] != whole {
			t.Fatalf("item %s: deltas %q; want them to add up to %q", id, r.deltas[id], whole)
		}
	}
	return r
}

func msg(role, text string) map[string]any {
	return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": "input_text", "text": text}}}
}

// context items the CLI puts before every prompt.
var preamble = []any{
	msg("developer", "<permissions instructions>lab:plan is not a prompt</permissions instructions>"),
	msg("user", "<environment_context>\n  <cwd>/tmp/lab/work</cwd>\n  <shell>bash</shell>\n</environment_context>"),
}

func body(items ...any) map[string]any {
	return map[string]any{"model": "gpt-5.5", "stream": true, "input": append(append([]any{}, preamble...), items...),
		"tools": []any{map[string]any{"type": "function", "name": "exec_command"}, map[string]any{"type": "custom", "name": "apply_patch"}}}
}

func fnCall(id, name, args string) map[string]any {
	return map[string]any{"type": "function_call", "call_id": id, "name": name, "arguments": args}
}

func output(id, out string) map[string]any {
	return map[string]any{"type": "function_call_output", "call_id": id, "output": out}
}

func TestScenarioFirstTurns(t *testing.T) {
	srv := httptest.NewServer(New(Options{ChunkDelay: time.Millisecond, SlowChunks: 5}))
	defer srv.Close()
	cases := []struct {
		prompt, scenario string
		kind, name, has  string // the last item: its type, tool name and a substring of its arguments or text
	}{
		{"hello there", "text", "message", "", "You said: hello there"},
		{"lab:text hi", "text", "message", "", "You said: lab:text hi"},
		{"go lab:slow", "slow", "message", "", "word5 finished."},
		{"lab:think", "think", "message", "", "here is my answer"},
		{"lab:bash", "bash", "function_call", "exec_command", `"cmd":"echo lab-bash-ok"`},
		{"lab:permission", "permission", "function_call", "exec_command", `"sandbox_permissions":"require_escalated"`},
		{"lab:edit", "edit", "custom_tool_call", "apply_patch", "*** Add File: /tmp/lab/lab-edit-probe.txt\n+hello from lab"},
		{"lab:write", "write", "custom_tool_call", "apply_patch", "*** Add File: /tmp/lab/work/lab-write.txt\n+first line\n+second line\n*** End Patch"},
		{"lab:change", "change", "custom_tool_call", "apply_patch", "*** Update File: /tmp/lab/work/lab-edit.txt\n@@\n-hello\n+hello, edited\n"},
		{"lab:todo", "todo", "function_call", "update_plan", `"status":"in_progress","step":"Print it"`},
		{"lab:single", "single", "function_call", "request_user_input", `"header":"Database"`},
		{"lab:form please", "form", "function_call", "request_user_input", `"header":"Size"`},
		{"lab:plan", "plan", "message", "", "<proposed_plan>\n# Plan: add a greeting"},
		{"lab:read\n[Attached file: /tmp/lab/in.txt]", "read", "function_call", "exec_command", `"cmd":"cat '/tmp/lab/in.txt'"`},
		{"lab:read", "read", "message", "", "No file was attached to read."},
	}
	for _, c := range cases {
		t.Run(c.prompt, func(t *testing.T) {
			r := readStream(t, post(t, srv.URL, body(msg("user", c.prompt))))
			if r.events[0] != "response.created" || r.events[len(r.events)-1] != "response.completed" {
				t.Fatalf("got events %v; want response.created … response.completed", r.events)
			}
			last := r.items[len(r.items)-1]
			if last["type"] != c.kind {
				t.Fatalf("got last item %v; want a %s", last, c.kind)
			}
			var got string
			switch c.kind {
			case "message":
				got = last["content"].([]any)[0].(map[string]any)["text"].(string)
			case "function_call":
				got = last["arguments"].(string)
				if !json.Valid([]byte(got)) {
					t.Fatalf("arguments %q are not JSON", got)
				}
			case "custom_tool_call":
				got = last["input"].(string)
			}
			if c.name != "" && last["name"] != c.name {
				t.Fatalf("got tool %v; want %s", last["name"], c.name)
			}
			if !strings.Contains(got, c.has) {
				t.Fatalf("got %q; want it to contain %q", got, c.has)
			}
			if c.kind != "message" && (!strings.HasPrefix(last["call_id"].(string), "call_01") || len(last["call_id"].(string)) != len("call_")+24) {
				t.Fatalf("got call_id %v; want call_01 and 22 more characters", last["call_id"])
			}
		})
	}
}

func TestScenarioContinuesAfterToolOutput(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	first := readStream(t, post(t, srv.URL, body(msg("user", "lab:single"))))
	q := first.items[1]
	id := q["call_id"].(string)
	answer := `{"answers":{"database":{"answers":["PostgreSQL"]}}}`
	second := readStream(t, post(t, srv.URL, body(msg("user", "lab:single"), first.items[0], fnCall(id, "request_user_input", q["arguments"].(string)), output(id, answer))))
	if len(second.items) != 1 {
		t.Fatalf("got %v; want one message", second.items)
	}
	if got, want := second.items[0]["content"].([]any)[0].(map[string]any)["text"], "tool output for request_user_input: "+answer; got != want {
		t.Fatalf("got reply %q; want %q", got, want)
	}
	reqs := s.Requests()
	r := reqs[1]
	if r.Scenario != "single" || r.Prompt != "lab:single" || r.StepsSincePrompt != 1 || len(r.ToolOutputs) != 1 || r.ToolOutputs[0].CallID != id || r.ToolOutputs[0].Output != answer {
		t.Fatalf("got recorded %+v; want scenario single, prompt lab:single, one step, the tool output", r)
	}
	// A typed follow-up without a keyword starts over as plain text; an
	// injected <turn_aborted> block is not a prompt.
	third := readStream(t, post(t, srv.URL, body(msg("user", "lab:single"), fnCall(id, "request_user_input", "{}"), output(id, answer),
		msg("assistant", "ok"), msg("user", "thanks"), msg("user", "<turn_aborted>\nThe user interrupted.\n</turn_aborted>"))))
	if got := third.items[0]["content"].([]any)[0].(map[string]any)["text"].(string); !strings.HasSuffix(got, "You said: thanks") {
		t.Fatalf("got follow-up reply %q; want the text scenario echoing thanks", got)
	}
}

// The title request comes with the first turn and wants structured
// output; it gets a JSON title and does not move the scenario on.
func TestTitleRequestDoesNotConsumeAStep(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	title := body(msg("user", "Generate a concise title.\n\nUser prompt:\nlab:bash"))
	title["text"] = map[string]any{"format": map[string]any{"type": "json_schema", "name": "codex_output_schema"}}
	r := readStream(t, post(t, srv.URL, title))
	text := r.items[0]["content"].([]any)[0].(map[string]any)["text"].(string)
	var v struct{ Title string }
	if err := json.Unmarshal([]byte(text), &v); err != nil || v.Title == "" {
		t.Fatalf("title reply %q; want JSON with a title", text)
	}
	r = readStream(t, post(t, srv.URL, body(msg("user", "lab:bash"))))
	if r.items[len(r.items)-1]["name"] != "exec_command" {
		t.Fatalf("the turn after the title request got %v; want the scenario's first step", r.items)
	}
	reqs := s.Requests()
	if reqs[0].Kind != KindTitle || reqs[0].Scenario != "" || reqs[1].Kind != KindResponses || reqs[1].Scenario != "bash" {
		t.Fatalf("got %+v; want a title request, then the bash scenario", reqs)
	}
}

func TestEditPatchesBesideTheWorkspace(t *testing.T) {
	if got := EditTarget("/tmp/x/work"); got != "/tmp/x/lab-edit-probe.txt" {
		t.Fatalf("EditTarget = %q; want the file beside the workspace", got)
	}
	if got := EditTarget(""); got != "../lab-edit-probe.txt" {
		t.Fatalf("EditTarget without a cwd = %q", got)
	}
}

func TestPlanModeIsRecorded(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	plan := msg("developer", "<collaboration_mode># Plan Mode (Conversational)\n\nYou are in **Plan Mode**.</collaboration_mode>")
	readStream(t, post(t, srv.URL, body(plan, msg("user", "lab:plan"))))
	readStream(t, post(t, srv.URL, body(msg("user", "lab:plan"))))
	// History keeps the Plan mode block; a newer Default block ends it.
	readStream(t, post(t, srv.URL, body(plan, msg("user", "lab:plan"), msg("assistant", "a plan"),
		msg("developer", "<collaboration_mode># Collaboration Mode: Default\n\nYou are now in Default mode.</collaboration_mode>"), msg("user", "Implement the plan."))))
	reqs := s.Requests()
	if !reqs[0].PlanMode || reqs[1].PlanMode || reqs[2].PlanMode {
		t.Fatalf("got PlanMode %v, %v, %v; want true only under the newest Plan mode instructions", reqs[0].PlanMode, reqs[1].PlanMode, reqs[2].PlanMode)
	}
}

func TestUnknownPathsAndBadBodies(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("got status %d for an unknown path; want 200", resp.StatusCode)
	}
	resp, err = http.Post(srv.URL+"/v1/responses", "application/json", strings.NewReader(`{not json`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("got %d for a bad body; want 400", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Kind != KindOther || reqs[0].Path != "/v1/models" || reqs[1].Seq != 2 {
		t.Fatalf("got %+v; want other /v1/models, then the bad one", reqs)
	}
}

func TestNonStreamingGetsTheWholeResponse(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	b := body(msg("user", "lab:bash"))
	b["stream"] = false
	resp := post(t, srv.URL, b)
	defer resp.Body.Close()
	var r struct {
		Status string           `json:"status"`
		Output []map[string]any `json:"output"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != "completed" || len(r.Output) != 2 || r.Output[1]["name"] != "exec_command" {
		t.Fatalf("got %+v; want a completed response ending in exec_command", r)
	}
}

func TestSlowStreamStopsWhenTheClientLeaves(t *testing.T) {
	fakeapitest.SlowStreamStops(t, New(Options{ChunkDelay: 20 * time.Millisecond, SlowChunks: 1000}), "/v1/responses", body(msg("user", "lab:slow")), "response.output_text.delta")
}

func TestScenariosAreDocumentedAndReachable(t *testing.T) {
	fakeapitest.ScenariosReachable(t, Scenarios(), func(prompt string) string { return pickScenario(prompt).Name })
}
