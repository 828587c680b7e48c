package fakecodexapi

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"lab/internal/fakeapi"
)

// ScenarioInfo describes one scripted scenario (see fakeapi.ScenarioInfo).
type ScenarioInfo = fakeapi.ScenarioInfo

// turn is one response the scenario sends: its output items in order.
type turn []outItem

// outItem is one output item of a scripted response.
type outItem struct {
	kind string // "text", "reasoning", "function_call" or "custom_tool_call"
	text string // text, reasoning summary, or a custom tool's freeform input
	name string // tool name
	args any    // function arguments, marshalled to JSON
	slow bool   // stream text a word at a time with a pause between
}

// scenario is a script: the responses it plays after the prompt, in
// order. The server picks turns()[tool outputs since the prompt].
type scenario struct {
	ScenarioInfo
	turns func(c *call) []turn
}

// call is what a scenario may read of the request being answered.
type call struct {
	req  *Request
	opts *Options
}

// Tool names of the Codex CLI 0.171.0 (model gpt-5.5).
const (
	ToolExecCommand      = "exec_command"
	ToolApplyPatch       = "apply_patch"
	ToolRequestUserInput = "request_user_input"
	ToolUpdatePlan       = "update_plan"
)

var scenarios = []scenario{
	{fakeapi.Info("text", "a short plain text reply echoing the prompt (also the default)", ""), textTurns},
	{fakeapi.Info("slow", "long text streamed a word at a time (interrupt it with Escape)", ""), slowTurns},
	{fakeapi.Info("think", "a reasoning summary, then a text reply", ""), thinkTurns},
	{fakeapi.Info("bash", "runs `echo lab-bash-ok` with exec_command inside the sandbox, then replies with the output", ""), bashTurns},
	{fakeapi.Info("permission", "exec_command that asks to run outside the sandbox (an approval prompt), then replies with the output", ""), permissionTurns},
	{fakeapi.Info("edit", "apply_patch adding a file beside the workspace (an approval prompt), then replies with the output", ""), editTurns},
	{fakeapi.Info("write", "apply_patch adding lab-write.txt in the workspace (no approval in the workspace sandbox), then replies with the output", ""), writeTurns},
	{fakeapi.Info("change", "apply_patch changing \"hello\" to \"hello, edited\" in lab-edit.txt in the workspace (the file must exist and hold \"hello\"), then replies with the output", ""), changeTurns},
	{fakeapi.Info("todo", "update_plan with a three-step checklist, then a text reply", ""), todoTurns},
	{fakeapi.Info("single", "request_user_input with one question (SQLite, PostgreSQL, MySQL); then echoes the answer", ""), singleTurns},
	{fakeapi.Info("form", "request_user_input with two questions (Color, Size); then echoes the answers", ""), formTurns},
	{fakeapi.Info("plan", "replies with a <proposed_plan> block; in Plan mode the CLI asks \"Implement this plan?\"", "plan"), planTurns},
	{fakeapi.Info("read", "cats the file attached to the prompt with exec_command, then replies with its content", ""), readTurns},
	{fakeapi.Info("full", "a short text reply whose usage says the context is 85% full (the meter warns and offers /compact)", ""), textTurns},
}

// FullUsage is what the full scenario reports: 220k tokens in context
// (20k of them cached), 85% of the 258.4k window the CLI gives gpt-5.5.
var FullUsage = fakeapi.Usage{Input: 200_000, CacheRead: 20_000}

// readTurns cats the file the prompt hands over with exec_command, then
// echoes what the command printed.
func readTurns(c *call) []turn {
	return fakeapi.ReadTurns(c.req.Prompt, text, func(path string) outItem {
		return function(ToolExecCommand, map[string]any{"cmd": "cat '" + path + "'", "yield_time_ms": 1000})
	}, echoTurn(c))
}

// Scenarios lists the scripted scenarios with their keywords.
func Scenarios() []ScenarioInfo { return fakeapi.Infos(scenarios) }

// pickScenario returns the scenario a prompt names, else the text one.
func pickScenario(prompt string) *scenario { return fakeapi.Pick(prompt, scenarios) }

// text and function make the Responses API's output items (a per-CLI
// shape: the Messages API's blocks differ).
func text(s string) outItem { return outItem{kind: "text", text: s} }

func function(name string, args any) outItem {
	return outItem{kind: "function_call", name: name, args: args}
}

// echoTurn replies to the newest tool outputs with their content, so tests
// and the demo can see what the CLI recorded. A per-CLI rule: a Responses
// API tool output carries its call's name.
func echoTurn(c *call) turn {
	echoes := make([]string, len(c.req.ToolOutputs))
	for i, o := range c.req.ToolOutputs {
		name := cmp.Or(o.Name, "unknown tool")
		echoes[i] = fmt.Sprintf("tool output for %s: %s", name, o.Output)
	}
	return turn{text(fakeapi.EchoText(echoes))}
}

func textTurns(c *call) []turn {
	p := strings.TrimSpace(c.req.Prompt)
	if i := strings.IndexByte(p, '\n'); i >= 0 {
		p = p[:i]
	}
	if len(p) > 200 {
		p = p[:200] + "…"
	}
	return []turn{{text("Hello from lab's scripted model. You said: " + p)}}
}

func slowTurns(c *call) []turn {
	return []turn{{outItem{kind: "text", text: fakeapi.SlowText(c.opts.SlowChunks), slow: true}}}
}

// ThinkSummary is the reasoning summary the think scenario streams.
const ThinkSummary = "**Thinking it over**\n\nThe user wants to see reasoning. I will think briefly, then answer."

func thinkTurns(c *call) []turn {
	return []turn{{
		outItem{kind: "reasoning", text: ThinkSummary},
		text("I thought about it and here is my answer."),
	}}
}

func bashTurns(c *call) []turn {
	return []turn{
		{text("Let me run a command."), function(ToolExecCommand, map[string]any{"cmd": "echo lab-bash-ok", "yield_time_ms": 1000})},
		echoTurn(c),
	}
}

// PermissionJustification is the question the permission scenario's
// escalation request carries.
const PermissionJustification = "Do you want to create a probe file outside the sandbox?"

func permissionTurns(c *call) []turn {
	return []turn{
		{text("I need to create a file."), function(ToolExecCommand, map[string]any{
			"cmd":                 "touch lab-permission-probe.txt && echo created",
			"sandbox_permissions": "require_escalated",
			"justification":       PermissionJustification,
			"yield_time_ms":       1000,
		})},
		echoTurn(c),
	}
}

// EditFile is the base name of the file the edit scenario adds, in the
// parent of the CLI's working directory: outside the workspace, so a
// workspace-write sandbox asks before writing it (when /tmp is not a
// writable root, see codextest).
const EditFile = "lab-edit-probe.txt"

// EditPatch returns the patch the edit scenario sends for the file at p.
func EditPatch(p string) string {
	return "*** Begin Patch\n*** Add File: " + p + "\n+hello from lab\n+a second line\n*** End Patch\n"
}

// cwdRE finds the working directory in the CLI's environment context.
var cwdRE = regexp.MustCompile(`<cwd>([^<]+)</cwd>`)

// EditTarget is the path the edit scenario patches for a CLI running in
// cwd ("" when unknown: then a path relative to the CLI's directory).
func EditTarget(cwd string) string {
	if cwd == "" {
		return "../" + EditFile
	}
	return path.Join(path.Dir(cwd), EditFile)
}

func editTurns(c *call) []turn {
	cwd := ""
	if m := cwdRE.FindStringSubmatch(c.req.Text("user")); m != nil {
		cwd = m[1]
	}
	return []turn{
		{text("I will add a file."), outItem{kind: "custom_tool_call", name: ToolApplyPatch, text: EditPatch(EditTarget(cwd))}},
		echoTurn(c),
	}
}

// WriteFile and ChangeFile are the files the write and change scenarios
// patch, in the workspace; ChangeBefore is the line the change scenario
// replaces with ChangeAfter.
const (
	WriteFile    = "lab-write.txt"
	WriteBody    = "first line\nsecond line\n"
	ChangeFile   = "lab-edit.txt"
	ChangeBefore = "hello"
	ChangeAfter  = "hello, edited"
)

// workspaceFile is name in the CLI's working directory, absolute when
// the request says where that is.
func (c *call) workspaceFile(name string) string {
	if m := cwdRE.FindStringSubmatch(c.req.Text("user")); m != nil {
		return path.Join(m[1], name)
	}
	return name
}

func writeTurns(c *call) []turn {
	patch := "*** Begin Patch\n*** Add File: " + c.workspaceFile(WriteFile) + "\n"
	for _, l := range strings.SplitAfter(strings.TrimSuffix(WriteBody, "\n"), "\n") {
		patch += "+" + strings.TrimSuffix(l, "\n") + "\n"
	}
	patch += "*** End Patch\n"
	return []turn{
		{text("I will create a file."), outItem{kind: "custom_tool_call", name: ToolApplyPatch, text: patch}},
		echoTurn(c),
	}
}

func changeTurns(c *call) []turn {
	patch := "*** Begin Patch\n*** Update File: " + c.workspaceFile(ChangeFile) + "\n@@\n-" + ChangeBefore + "\n+" + ChangeAfter + "\n*** End Patch\n"
	return []turn{
		{text("I will edit the file."), outItem{kind: "custom_tool_call", name: ToolApplyPatch, text: patch}},
		echoTurn(c),
	}
}

func todoTurns(c *call) []turn {
	return []turn{
		{function(ToolUpdatePlan, map[string]any{
			"explanation": "Three steps to a greeting.",
			"plan": []map[string]string{
				{"step": "Create hello.txt", "status": "completed"},
				{"step": "Print it", "status": "in_progress"},
				{"step": "Clean up", "status": "pending"},
			},
		})},
		{text("The checklist is up to date.")},
	}
}

type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

type question struct {
	ID       string   `json:"id"`
	Header   string   `json:"header"`
	Question string   `json:"question"`
	Options  []option `json:"options"`
}

var (
	qDatabase = question{"database", "Database", "Which database should we use?", []option{
		{"SQLite (Recommended)", "Embedded, zero setup"}, {"PostgreSQL", "Full-featured server"}, {"MySQL", "Widely hosted"}}}
	qColor = question{"color", "Color", "Which color do you prefer?", []option{
		{"Red", "Warm"}, {"Blue", "Cool"}, {"Green", "Natural"}}}
	qSize = question{"size", "Size", "Which size should we stock?", []option{
		{"Small", "S"}, {"Large", "L"}}}
)

func ask(intro string, qs ...question) turn {
	return turn{text(intro), function(ToolRequestUserInput, map[string]any{"questions": qs})}
}

func singleTurns(c *call) []turn {
	return []turn{ask("I have a question for you.", qDatabase), echoTurn(c)}
}

func formTurns(c *call) []turn {
	return []turn{ask("A couple of questions.", qColor, qSize), echoTurn(c)}
}

// PlanMarkdown is the plan the plan scenario proposes.
const PlanMarkdown = `# Plan: add a greeting

1. Create ` + "`hello.txt`" + ` containing "hello".
2. Print it with ` + "`cat hello.txt`" + `.

- Risk: none; the file is new.`

func planTurns(c *call) []turn {
	return []turn{{text("Here is the plan.\n\n<proposed_plan>\n" + PlanMarkdown + "\n</proposed_plan>")}}
}

// mustJSON marshals a static script value.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // scripts are static Go values
	}
	return string(b)
}
