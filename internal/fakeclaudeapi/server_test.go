package fakeclaudeapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lab/internal/fakeapi/fakeapitest"
)

// reply is an assistant message reassembled from a stream.
type reply struct {
	events []string
	blocks []map[string]any // type, text/thinking, id, name, input (raw JSON string)
	stop   string
}

func post(t *testing.T, url string, body any) *http.Response {
	return fakeapitest.Post(t, url+"/v1/messages?beta=true", body)
}

// readStream parses the SSE body and reassembles the message from deltas.
func readStream(t *testing.T, resp *http.Response) reply {
	t.Helper()
	var r reply
	fakeapitest.Events(t, resp, func(name string, data map[string]any) {
		r.events = append(r.events, name)
		switch name {
		case "content_block_start":
			cb := data["content_block"].(map[string]any)
			b := map[string]any{"type": cb["type"], "id": cb["id"], "name": cb["name"], "text": "", "input": ""}
			r.blocks = append(r.blocks, b)
		case "content_block_delta":
			i := int(data["index"].(float64))
			d := data["delta"].(map[string]any)
			b := r.blocks[i]
			switch d["type"] {
			case "text_delta":
				b["text"] = b["text"].(string) + d["text"].(string)
			case "thinking_delta":
				b["text"] = b["text"].(string) + d["thinking"].(string)
			case "input_json_delta":
				b["input"] = b["input"].(string) + d["partial_json"].(string)
			case "signature_delta":
				b["signature"] = d["signature"]
			default:
				t.Fatalf("unknown delta %v", d["type"])
			}
		case "message_delta":
			r.stop = data["delta"].(map[string]any)["stop_reason"].(string)
		}
	})
	return r
}

func userText(s string) map[string]any {
	return map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "<system-reminder>\nsome reminder lab:plan\n</system-reminder>"},
		map[string]any{"type": "text", "text": s},
	}}
}

func toolResult(id, content string, isErr bool) map[string]any {
	return map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr},
		map[string]any{"type": "text", "text": "<system-reminder>a reminder on a tool result</system-reminder>"},
	}}
}

func assistantTool(id, name string) map[string]any {
	return map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}},
	}}
}

var tools = []any{map[string]any{"name": "AskUserQuestion"}, map[string]any{"name": "Bash"}, map[string]any{"name": "Write"}}

func body(msgs ...map[string]any) map[string]any {
	// The CLI sends a trailing system-role entry; the server must look past it.
	all := append([]any{}, toAny(msgs)...)
	all = append(all, map[string]any{"role": "system", "content": "env"})
	return map[string]any{"model": "claude-test", "stream": true, "tools": tools, "messages": all}
}

func toAny(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

func TestScenarioFirstTurns(t *testing.T) {
	srv := httptest.NewServer(New(Options{ChunkDelay: time.Millisecond, SlowChunks: 5}))
	defer srv.Close()
	cases := []struct {
		prompt   string
		scenario string
		tool     string // the tool_use block's name, "" for a text-only turn
		input    string // a substring of the tool input
		stop     string
	}{
		{"hello there", "text", "", "", "end_turn"},
		{"lab:text hi", "text", "", "", "end_turn"},
		{"go lab:slow", "slow", "", "", "end_turn"},
		{"lab:think", "think", "", "", "end_turn"},
		{"lab:bash", "bash", "Bash", `"command":"echo lab-bash-ok"`, "tool_use"},
		{"lab:permission", "permission", "Bash", "touch lab-permission-probe.txt", "tool_use"},
		{"lab:single", "single", "AskUserQuestion", `"multiSelect":false`, "tool_use"},
		{"lab:multi", "multi", "AskUserQuestion", `"multiSelect":true`, "tool_use"},
		{"lab:form", "form", "AskUserQuestion", `"header":"Size"`, "tool_use"},
		{"lab:form3 please", "form3", "AskUserQuestion", `"header":"Crust"`, "tool_use"},
		{"lab:plan", "plan", "ExitPlanMode", `"plan":"# Plan: add a greeting`, "tool_use"},
		{"lab:markdown", "markdown", "", "", "end_turn"},
		{"lab:read\n[Attached file: /tmp/lab/in.txt]", "read", "Read", `"file_path":"/tmp/lab/in.txt"`, "tool_use"},
		{"lab:read", "read", "", "", "end_turn"},
	}
	for _, c := range cases {
		t.Run(c.prompt, func(t *testing.T) {
			r := readStream(t, post(t, srv.URL, body(userText(c.prompt))))
			if r.stop != c.stop {
				t.Fatalf("got stop_reason %q; want %q", r.stop, c.stop)
			}
			if r.events[0] != "message_start" || r.events[len(r.events)-1] != "message_stop" || r.events[len(r.events)-2] != "message_delta" {
				t.Fatalf("got events %v; want message_start … message_delta, message_stop", r.events)
			}
			var gotTool map[string]any
			for _, b := range r.blocks {
				if b["type"] == "tool_use" {
					gotTool = b
				}
			}
			if c.tool == "" {
				if gotTool != nil || len(r.blocks) == 0 || r.blocks[len(r.blocks)-1]["text"] == "" {
					t.Fatalf("got blocks %v; want text only", r.blocks)
				}
				return
			}
			if gotTool == nil || gotTool["name"] != c.tool {
				t.Fatalf("got blocks %v; want a %s tool_use", r.blocks, c.tool)
			}
			in := gotTool["input"].(string)
			if !json.Valid([]byte(in)) || !strings.Contains(in, c.input) {
				t.Fatalf("got tool input %s; want valid JSON containing %s", in, c.input)
			}
			if id := gotTool["id"].(string); !strings.HasPrefix(id, "toolu_01") || len(id) != len("toolu_")+24 {
				t.Fatalf("got tool id %q; want toolu_01 and 22 more characters", id)
			}
		})
	}
}

func TestScenarioContinuesAfterToolResult(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	first := readStream(t, post(t, srv.URL, body(userText("lab:single"))))
	id := first.blocks[1]["id"].(string)
	answer := `User has answered your questions: "Which database should we use?"="PostgreSQL".`
	second := readStream(t, post(t, srv.URL, body(
		userText("lab:single"),
		assistantTool(id, "AskUserQuestion"),
		toolResult(id, answer, false),
	)))
	if second.stop != "end_turn" || len(second.blocks) != 1 {
		t.Fatalf("got %v stop %q; want one text block, end_turn", second.blocks, second.stop)
	}
	if got, want := second.blocks[0]["text"], "tool_result for AskUserQuestion: "+answer; got != want {
		t.Fatalf("got reply %q; want %q", got, want)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests; want 2", len(reqs))
	}
	r := reqs[1]
	if r.Scenario != "single" || r.Prompt != "lab:single" || len(r.ToolResults) != 1 || r.ToolResults[0].ToolUseID != id || r.ToolResults[0].Content != answer {
		t.Fatalf("got recorded %+v; want scenario single, prompt lab:single, the tool result", r)
	}
	// A typed follow-up without a keyword starts over as plain text.
	third := readStream(t, post(t, srv.URL, body(
		userText("lab:single"), assistantTool(id, "AskUserQuestion"), toolResult(id, answer, false),
		map[string]any{"role": "assistant", "content": "ok"}, userText("thanks"),
	)))
	if got := third.blocks[0]["text"].(string); !strings.HasSuffix(got, "You said: thanks") {
		t.Fatalf("got follow-up reply %q; want the text scenario echoing thanks", got)
	}
}

func TestPlanWritesThePlanFileFirst(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	prompt := map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "<system-reminder>No plan file exists yet. You should create your plan at /h/.claude/plans/x-y.md using the Write tool.</system-reminder>"},
		map[string]any{"type": "text", "text": "lab:plan"},
	}}
	r := readStream(t, post(t, srv.URL, body(prompt)))
	if len(r.blocks) != 2 || r.blocks[1]["name"] != "Write" || !strings.Contains(r.blocks[1]["input"].(string), `"file_path":"/h/.claude/plans/x-y.md"`) {
		t.Fatalf("got %v; want a Write of the plan file", r.blocks)
	}
	wid := r.blocks[1]["id"].(string)
	r = readStream(t, post(t, srv.URL, body(prompt, assistantTool(wid, "Write"), toolResult(wid, "File created", false))))
	if len(r.blocks) != 1 || r.blocks[0]["name"] != "ExitPlanMode" {
		t.Fatalf("got %v; want ExitPlanMode", r.blocks)
	}
	pid := r.blocks[0]["id"].(string)
	feedback := "Error: The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nsmaller steps"
	r = readStream(t, post(t, srv.URL, body(prompt, assistantTool(wid, "Write"), toolResult(wid, "File created", false),
		assistantTool(pid, "ExitPlanMode"), toolResult(pid, feedback, true))))
	if got, want := r.blocks[0]["text"], "tool_result (error) for ExitPlanMode: "+feedback; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
}

func TestSideRequestsGetPlainText(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	b := body(userText("lab:single"))
	delete(b, "tools")
	b["stream"] = false
	resp := post(t, srv.URL, b)
	defer resp.Body.Close()
	var m struct {
		Type       string           `json:"type"`
		Content    []map[string]any `json:"content"`
		StopReason string           `json:"stop_reason"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || m.StopReason != "end_turn" || len(m.Content) != 1 || m.Content[0]["type"] != "text" {
		t.Fatalf("got %+v; want one text block, end_turn", m)
	}
	if got := s.Requests()[0].Scenario; got != "side" {
		t.Fatalf("got scenario %q; want side", got)
	}
}

func TestCountTokensAndUnknownPaths(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages/count_tokens?beta=true", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	json.NewDecoder(resp.Body).Decode(&ct)
	resp.Body.Close()
	if ct.InputTokens <= 0 {
		t.Fatalf("got input_tokens %d; want > 0", ct.InputTokens)
	}
	resp, err = http.Get(srv.URL + "/api/hello")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("got status %d for an unknown path; want 200", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Kind != "count_tokens" || reqs[1].Kind != "other" || reqs[1].Path != "/api/hello" || reqs[1].Seq != 2 {
		t.Fatalf("got %+v; want count_tokens then other /api/hello", reqs)
	}
}

func TestBadBodyIsA400(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(`{not json`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("got %d; want 400", resp.StatusCode)
	}
}

func TestSlowStreamStopsWhenTheClientLeaves(t *testing.T) {
	fakeapitest.SlowStreamStops(t, New(Options{ChunkDelay: 20 * time.Millisecond, SlowChunks: 1000}), "/v1/messages", body(userText("lab:slow")), "content_block_delta")
}

func TestScenariosAreDocumentedAndReachable(t *testing.T) {
	fakeapitest.ScenariosReachable(t, Scenarios(), func(prompt string) string { return pickScenario(prompt).Name })
}

// After a declined picker the CLI sends the next prompt in the same user
// message as the rejected tool_result: it starts the scenario it names.
func TestPromptAfterADeclinedPicker(t *testing.T) {
	s := New(Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	first := readStream(t, post(t, srv.URL, body(userText("lab:single"))))
	id := first.blocks[1]["id"].(string)
	declined := map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": id, "content": "User rejected tool use", "is_error": true},
		map[string]any{"type": "text", "text": "[Request interrupted by user for tool use]"},
		map[string]any{"type": "text", "text": "lab:multi now"},
	}}
	readStream(t, post(t, srv.URL, body(userText("lab:single"), assistantTool(id, "AskUserQuestion"), declined)))
	reqs := s.Requests()
	if r := reqs[len(reqs)-1]; r.Scenario != "multi" || !strings.Contains(r.Prompt, "lab:multi now") {
		t.Fatalf("got scenario %q prompt %q; want the multi scenario started by the new prompt", r.Scenario, r.Prompt)
	}
	// A decline with only the interrupt marker is not a prompt.
	onlyMarker := map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": id, "content": "User rejected tool use", "is_error": true},
		map[string]any{"type": "text", "text": "[Request interrupted by user for tool use]"},
	}}
	readStream(t, post(t, srv.URL, body(userText("lab:single"), assistantTool(id, "AskUserQuestion"), onlyMarker)))
	reqs = s.Requests()
	if r := reqs[len(reqs)-1]; r.Prompt != "lab:single" {
		t.Fatalf("got prompt %q; want the earlier prompt lab:single", r.Prompt)
	}
}

func TestMarkdownScenario(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	r := readStream(t, post(t, srv.URL, body(userText("lab:markdown show me"))))
	got := r.blocks[0]["text"].(string)
	for _, want := range []string{"```go", "```sh", "| Store | Setup | Good for |", "> A quote", "12. Step 12"} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown reply lacks %q", want)
		}
	}
	if len(got) < 1500 {
		t.Errorf("markdown reply is %d bytes; want a long one", len(got))
	}
	// In plan mode: the long plan is written, then offered for approval.
	prompt := map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "<system-reminder>No plan file exists yet. You should create your plan at /h/.claude/plans/m.md using the Write tool.</system-reminder>"},
		map[string]any{"type": "text", "text": "lab:markdown"},
	}}
	r = readStream(t, post(t, srv.URL, body(prompt)))
	if len(r.blocks) != 2 || r.blocks[1]["name"] != "Write" {
		t.Fatalf("got %v; want a Write of the plan file", r.blocks)
	}
	wid := r.blocks[1]["id"].(string)
	r = readStream(t, post(t, srv.URL, body(prompt, assistantTool(wid, "Write"), toolResult(wid, "File created", false))))
	if len(r.blocks) != 1 || r.blocks[0]["name"] != "ExitPlanMode" || !strings.Contains(r.blocks[0]["input"].(string), "16. Step 16") {
		t.Fatalf("got %v; want ExitPlanMode with the long plan", r.blocks)
	}
}

func TestTextEchoesEveryLine(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	r := readStream(t, post(t, srv.URL, body(userText("first line\nsecond line\n\n- a list item"))))
	if got := r.blocks[0]["text"].(string); !strings.HasSuffix(got, "You said: first line\nsecond line\n\n- a list item") {
		t.Fatalf("got %q; want the whole prompt echoed", got)
	}
}
