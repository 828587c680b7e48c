package fakeclaudeapi

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"

	"lab/internal/fakeapi"
)

// Request is one HTTP request the server received, with the Messages API
// body parsed when there was one. Tests assert on it. Its Kind is
// "messages", "count_tokens" or "other"; its Prompt the typed text of the
// newest user message that is a prompt (typed text and no tool_result).
type Request struct {
	fakeapi.Request
	Messages []Message
	// UserText is the typed text of the newest user message, whatever
	// else it carries.
	UserText string
	// ToolResults are the tool_result blocks of the newest user message.
	ToolResults []ToolResult
	// Failed is set when the scenario answered with an error on purpose.
	Failed bool
	// PlanPath is the plan file path the request named, if any.
	PlanPath string
	// Cwd is the CLI's working directory, from its system prompt.
	Cwd string
}

// Message is one entry of a request's messages array.
type Message struct {
	Role   string
	Blocks []Block
}

// Block is one content block. Fields apply by Type: text (Text), tool_use
// (ID, Name, Input), tool_result (ToolUseID, Content, IsError), thinking
// (Text), image (MediaType and the decoded Data of a base64 source).
type Block struct {
	Type      string
	Text      string
	ID        string
	Name      string
	Input     json.RawMessage
	ToolUseID string
	Content   string
	IsError   bool
	MediaType string
	Data      []byte
}

// ToolResult is a tool_result block the CLI sent back.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// Images returns the message's image blocks.
func (m Message) Images() []Block {
	var out []Block
	for _, b := range m.Blocks {
		if b.Type == "image" {
			out = append(out, b)
		}
	}
	return out
}

// Text joins the message's text blocks with newlines.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TypedText joins the text blocks that are not CLI reminders
// ("<system-reminder>…"): what the user typed.
func (m Message) TypedText() string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == "text" && !isReminder(b.Text) {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func isReminder(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "<system-reminder>")
}

// isPrompt reports whether m is something the user typed: a user message
// with typed text and no tool_result (the CLI attaches reminders to tool results,
// which must not count as a new prompt).
//
// One exception: after a declined picker the CLI sends the operator's next
// prompt in the same message as the rejected (is_error) tool_result, with
// the interrupt marker between; typed text there is a new prompt.
func (m Message) isPrompt() bool {
	if m.Role != "user" {
		return false
	}
	hasText, results, declined := false, false, false
	for _, b := range m.Blocks {
		switch b.Type {
		case "tool_result":
			results = true
			declined = declined || b.IsError
		case "text":
			hasText = hasText || (!isReminder(b.Text) && !isInterruptMarker(b.Text))
		}
	}
	return hasText && (!results || declined)
}

func isInterruptMarker(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "[Request interrupted by user")
}

// wireRequest is the part of a Messages API body the server reads.
type wireRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Messages []wireMessage     `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *wireSource     `json:"source"`
}

// wireSource is an image block's source: base64 data of a media type.
type wireSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// cwdRE finds the working directory the CLI's system prompt names.
var cwdRE = regexp.MustCompile(`Primary working directory: ([^\s"\\]+)`)

// planPathRE finds the plan file the CLI's plan-mode instructions name.
var planPathRE = regexp.MustCompile(`create your plan at ([^\s"\\]+\.md)`)

// parseMessages fills r from a Messages API body. It is lenient: content
// may be a string or a block array, and unknown block types are kept with
// their type only.
func parseMessages(r *Request, body []byte) error {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	r.Model, r.Stream = w.Model, w.Stream
	for _, t := range w.Tools {
		var named struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &named) == nil && named.Name != "" {
			r.Tools = append(r.Tools, named.Name)
		}
	}
	for _, wm := range w.Messages {
		r.Messages = append(r.Messages, Message{Role: wm.Role, Blocks: parseContent(wm.Content)})
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == "user" {
			r.UserText = m.TypedText()
			for _, b := range m.Blocks {
				if b.Type == "tool_result" {
					r.ToolResults = append(r.ToolResults, ToolResult{ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError})
				}
			}
			break
		}
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.isPrompt() {
			r.Prompt = m.TypedText()
			break
		}
	}
	if m := planPathRE.FindSubmatch(body); m != nil {
		r.PlanPath = string(m[1])
	}
	if m := cwdRE.FindSubmatch(body); m != nil {
		r.Cwd = string(m[1])
	}
	return nil
}

// parseContent reads a message's content: a plain string or blocks.
func parseContent(raw json.RawMessage) []Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var wbs []wireBlock
	if json.Unmarshal(raw, &wbs) != nil {
		return nil
	}
	out := make([]Block, 0, len(wbs))
	for _, wb := range wbs {
		b := Block{Type: wb.Type, Text: wb.Text, ID: wb.ID, Name: wb.Name, Input: wb.Input, ToolUseID: wb.ToolUseID, IsError: wb.IsError}
		if wb.Type == "thinking" {
			b.Text = wb.Thinking
		}
		if wb.Type == "tool_result" {
			b.Content = contentText(wb.Content)
		}
		if wb.Type == "image" && wb.Source != nil {
			b.MediaType = wb.Source.MediaType
			b.Data, _ = base64.StdEncoding.DecodeString(wb.Source.Data)
		}
		out = append(out, b)
	}
	return out
}

// contentText flattens a tool_result's content (a string or text blocks).
func contentText(raw json.RawMessage) string {
	return fakeapi.JoinText(raw, func(typ, _ string) bool { return typ == "text" })
}

// stepsSincePrompt counts the assistant messages after the newest typed
// prompt: how far the current scenario has got.
func stepsSincePrompt(msgs []Message) int {
	n := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].isPrompt() {
			return n
		}
		if msgs[i].Role == "assistant" {
			n++
		}
	}
	return n
}
