package fakeclaudeapi

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"lab/internal/fakeapi"
)

// ScenarioInfo describes one scripted scenario (see fakeapi.ScenarioInfo).
type ScenarioInfo = fakeapi.ScenarioInfo

// turn is one assistant message the scenario sends.
type turn []outBlock

// outBlock is one content block of a scripted assistant message.
type outBlock struct {
	kind  string // "text", "thinking" or "tool_use"
	text  string
	name  string // tool name
	input any    // tool input, marshalled to JSON
	slow  bool   // stream text in many small chunks with a pause between
}

// scenario is a script: the assistant turns it plays after the prompt, in
// order. The turns may depend on the request (the plan file path, the tool
// results); the server picks turns()[steps since the prompt].
type scenario struct {
	ScenarioInfo
	turns func(c *call) []turn
	// fail, when set, makes requests fail before (or instead of) turns.
	fail *failure
}

// call is what a scenario may read of the request being answered.
type call struct {
	req  *Request
	opts *Options
}

// cwdFile is name in the CLI's working directory, as the request names
// it (the file tools want absolute paths).
func (c *call) cwdFile(name string) string { return c.req.Cwd + "/" + name }

// scenarios in the order the docs list them. Keep keywords unique and
// free of prefixes of one another ("lab:form" vs "lab:form3" is handled by
// matching the longest keyword first).
var scenarios = []scenario{
	{fakeapi.Info("text", "a short plain text reply echoing the prompt (also the default)", ""), textTurns, nil},
	{fakeapi.Info("slow", "long text streamed in small chunks with a pause between (interrupt it with Escape)", ""), slowTurns, nil},
	{fakeapi.Info("think", "a thinking block, then a text reply", ""), thinkTurns, nil},
	{fakeapi.Info("bash", "runs `echo lab-bash-ok` with Bash, then replies with the output", ""), bashTurns, nil},
	{fakeapi.Info("permission", "a Bash command that writes a file, which asks for approval in manual mode; then replies with the result", "manual"), permissionTurns, nil},
	{fakeapi.Info("twice", "runs the same Bash command `echo lab-twice` two times, one after the other, then replies with the outputs (allow it always at the first prompt and the second runs without one)", "manual"), twiceTurns, nil},
	{fakeapi.Info("write", "creates lab-write.txt with Write (a permission prompt with the new content in manual mode), then replies with the result", "manual"), writeTurns, nil},
	{fakeapi.Info("edit", "changes \"hello\" to \"hello, edited\" in lab-edit.txt with Edit (the file must exist and hold \"hello\"), then replies with the result", "manual"), editTurns, nil},
	{fakeapi.Info("fetch", "fetches http://127.0.0.1:9/lab with WebFetch (a permission prompt for another tool), then replies with the result", "manual"), fetchTurns, nil},
	{fakeapi.Info("single", "AskUserQuestion with one single-select question (SQLite, PostgreSQL, MySQL); then echoes the answer", ""), singleTurns, nil},
	{fakeapi.Info("multi", "AskUserQuestion with one multi-select question (Cheese, Olives, Mushrooms, Peppers); then echoes the answer", ""), multiTurns, nil},
	{fakeapi.Info("form", "AskUserQuestion with two questions: Color (single) and Size (multi); then echoes the answers", ""), formTurns, nil},
	{fakeapi.Info("form3", "AskUserQuestion with three questions: Color (single), Size (multi), Crust (single); then echoes the answers", ""), form3Turns, nil},
	{fakeapi.Info("plan", "writes a plan to the plan file the request names, calls ExitPlanMode, then echoes the result", "plan"), planTurns, nil},
	{fakeapi.Info("markdown", "a long markdown reply with code blocks, a table and lists; in plan mode a long plan for approval instead", ""), markdownTurns, nil},
	{fakeapi.Info("overloaded", "every request answered 529 overloaded_error (the CLI retries, then gives up)", ""), textTurns, failOverloaded},
	{fakeapi.Info("apierror", "every request answered 500 api_error", ""), textTurns, failAPIError},
	{fakeapi.Info("flaky", "the first two requests answered 529 overloaded_error, then a plain text reply", ""), textTurns, failFlaky},
	{fakeapi.Info("hangup", "every request's connection closed without an answer", ""), textTurns, failHangup},
	{fakeapi.Info("read", "reads the file attached to the prompt with Read, then replies with its content", ""), readTurns, nil},
	{fakeapi.Info("full", "a short text reply whose usage says the context is 85% full (the meter warns and offers /compact)", ""), textTurns, nil},
}

// FullUsage is what the full scenario reports: 850k tokens in context,
// 85% of the 1M window of the demo's model (claude-opus-5-5).
var FullUsage = fakeapi.Usage{Input: 790_000, CacheRead: 60_000}

// readTurns reads the file the prompt hands over with Read, then echoes
// what the CLI read.
func readTurns(c *call) []turn {
	return fakeapi.ReadTurns(c.req.Prompt, text, func(path string) outBlock {
		return tool("Read", map[string]any{"file_path": path})
	}, echoTurn(c))
}

// Scenarios lists the scripted scenarios with their keywords.
func Scenarios() []ScenarioInfo { return fakeapi.Infos(scenarios) }

// pickScenario returns the scenario a prompt names, else the text one.
func pickScenario(prompt string) *scenario { return fakeapi.Pick(prompt, scenarios) }

// text and tool make the Messages API's content blocks (a per-CLI shape:
// the Responses API's items differ).
func text(s string) outBlock { return outBlock{kind: "text", text: s} }

func tool(name string, input any) outBlock {
	return outBlock{kind: "tool_use", name: name, input: input}
}

// echoTurn replies to the newest tool results with their content, so tests
// and the demo can see what the CLI recorded as the answer. A per-CLI
// rule: a Messages API tool result names its call by id and may be an
// error.
func echoTurn(c *call) turn {
	echoes := make([]string, len(c.req.ToolResults))
	for i, tr := range c.req.ToolResults {
		status := "tool_result"
		if tr.IsError {
			status = "tool_result (error)"
		}
		echoes[i] = fmt.Sprintf("%s for %s: %s", status, toolName(c.req.Messages, tr.ToolUseID), tr.Content)
	}
	return turn{text(fakeapi.EchoText(echoes))}
}

// toolName finds the name of the tool_use with id in the history.
func toolName(msgs []Message, id string) string {
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Type == "tool_use" && b.ID == id {
				return b.Name
			}
		}
	}
	return "unknown tool"
}

// textEchoMax bounds the echoed prompt; a pasted novel need not come back.
const textEchoMax = 4000

// textTurns echoes the whole prompt, every line of it, so a multi-line
// reply is seen to arrive intact.
func textTurns(c *call) []turn {
	p := strings.TrimSpace(c.req.Prompt)
	if len(p) > textEchoMax {
		n := textEchoMax
		for n > 0 && !utf8.RuneStart(p[n]) {
			n--
		}
		p = p[:n] + "…"
	}
	return []turn{{text("Hello from lab's scripted model. You said: " + p)}}
}

func slowTurns(c *call) []turn {
	return []turn{{outBlock{kind: "text", text: fakeapi.SlowText(c.opts.SlowChunks), slow: true}}}
}

func thinkTurns(c *call) []turn {
	return []turn{{
		outBlock{kind: "thinking", text: "The user wants to see a thinking block. I will think briefly, then answer."},
		text("I thought about it and here is my answer."),
	}}
}

func bashTurns(c *call) []turn {
	return []turn{
		{text("Let me run a command."), tool("Bash", map[string]any{"command": "echo lab-bash-ok", "description": "Print a marker"})},
		echoTurn(c),
	}
}

func permissionTurns(c *call) []turn {
	return []turn{
		{text("I need to create a file."), tool("Bash", map[string]any{"command": "touch lab-permission-probe.txt && echo created", "description": "Create a probe file"})},
		echoTurn(c),
	}
}

func twiceTurns(c *call) []turn {
	run := tool("Bash", map[string]any{"command": "sh -c 'echo lab-twice'", "description": "Print a marker"})
	return []turn{
		{text("I will print a marker twice."), run},
		{text("Once more."), run},
		echoTurn(c),
	}
}

// WriteFile and EditFile are the files the write and edit scenarios touch,
// relative to the run's folder; EditBefore is what the edit scenario
// expects lab-edit.txt to hold.
const (
	WriteFile   = "lab-write.txt"
	WriteBody   = "first line\nsecond line\n"
	EditFile    = "lab-edit.txt"
	EditBefore  = "hello"
	EditAfter   = "hello, edited"
	FetchTarget = "http://127.0.0.1:9/lab"
)

func writeTurns(c *call) []turn {
	return []turn{
		{text("I will create a file."), tool("Write", map[string]any{"file_path": c.cwdFile(WriteFile), "content": WriteBody})},
		echoTurn(c),
	}
}

func editTurns(c *call) []turn {
	return []turn{
		{text("I will edit the file."), tool("Edit", map[string]any{"file_path": c.cwdFile(EditFile), "old_string": EditBefore, "new_string": EditAfter})},
		echoTurn(c),
	}
}

func fetchTurns(c *call) []turn {
	return []turn{
		{text("I will fetch a page."), tool("WebFetch", map[string]any{"url": FetchTarget, "prompt": "Summarise the page"})},
		echoTurn(c),
	}
}

type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

type question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	MultiSelect bool     `json:"multiSelect"`
	Options     []option `json:"options"`
}

var (
	qDatabase = question{"Which database should we use?", "Database", false, []option{
		{"SQLite", "Embedded, zero setup"}, {"PostgreSQL", "Full-featured server"}, {"MySQL", "Widely hosted"}}}
	qToppings = question{"Which toppings do you want?", "Toppings", true, []option{
		{"Cheese", "Mozzarella"}, {"Olives", "Black olives"}, {"Mushrooms", "Button mushrooms"}, {"Peppers", "Green peppers"}}}
	qColor = question{"Which color do you prefer?", "Color", false, []option{
		{"Red", "Warm"}, {"Blue", "Cool"}, {"Green", "Natural"}}}
	qSize = question{"Which sizes should we stock?", "Size", true, []option{
		{"Small", "S"}, {"Medium", "M"}, {"Large", "L"}}}
	qCrust = question{"Which crust do you like?", "Crust", false, []option{
		{"Thin", "Crispy"}, {"Thick", "Chewy"}}}
)

func ask(intro string, qs ...question) turn {
	return turn{text(intro), tool("AskUserQuestion", map[string]any{"questions": qs})}
}

func singleTurns(c *call) []turn {
	return []turn{ask("I have a question for you.", qDatabase), echoTurn(c)}
}

func multiTurns(c *call) []turn {
	return []turn{ask("Pick your toppings.", qToppings), echoTurn(c)}
}

func formTurns(c *call) []turn {
	return []turn{ask("A couple of questions.", qColor, qSize), echoTurn(c)}
}

func form3Turns(c *call) []turn {
	return []turn{ask("Three questions.", qColor, qSize, qCrust), echoTurn(c)}
}

// PlanMarkdown is the plan the plan scenario writes.
const PlanMarkdown = `# Plan: add a greeting

1. Create ` + "`hello.txt`" + ` containing "hello".
2. Print it with ` + "`cat hello.txt`" + `.

- Risk: none; the file is new.
`

func planTurns(c *call) []turn {
	var ts []turn
	if c.req.PlanPath != "" {
		ts = append(ts, turn{text("I will write the plan first."), tool("Write", map[string]any{"file_path": c.req.PlanPath, "content": PlanMarkdown})})
	}
	ts = append(ts, turn{tool("ExitPlanMode", map[string]any{"plan": PlanMarkdown})}, echoTurn(c))
	return ts
}
