package fakecodexapi

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"

	"lab/internal/fakeapi"
)

// Request kinds.
const (
	KindResponses = "responses" // a turn of the conversation
	KindTitle     = "title"     // the side request for a thread title
	KindCompact   = "compact"   // the request for a summary that compacts the context
	KindOther     = "other"     // anything but POST …/responses
)

// Request is one HTTP request the server received, with the Responses API
// body parsed when there was one. Tests assert on it. Its Kind is one of
// the kinds above; its Prompt the text of the newest user message that
// the operator typed (not context the CLI injects).
type Request struct {
	fakeapi.Request
	// Items is the request's input, in order.
	Items []Item
	// StepsSincePrompt counts the tool outputs after that prompt: how far
	// the scenario has got.
	StepsSincePrompt int
	// ToolOutputs are the outputs that follow the model's newest output:
	// what the CLI reports back this time.
	ToolOutputs []ToolOutput
	// PlanMode says the CLI's instructions put the model in Plan mode.
	PlanMode bool
}

// Item is one input item. Fields apply by Type: message (Role, Text,
// Images), function_call and custom_tool_call (Name, CallID, Arguments:
// the JSON arguments or the freeform input), function_call_output and
// custom_tool_call_output (CallID, Output), reasoning (Text: the summary).
type Item struct {
	Type      string
	Role      string
	Text      string
	Name      string
	CallID    string
	Arguments string
	Output    string
	Images    []Image
}

// Image is an input_image part of a message: its image_url, and when that
// is a base64 data URL, its media type and decoded bytes.
type Image struct {
	URL       string // as sent, data URLs cut after their header
	MediaType string
	Data      []byte
}

// ToolOutput is a tool call's output the CLI sent back.
type ToolOutput struct {
	CallID string
	Name   string // the call's tool name, from the history
	Output string
}

// Text returns the text of the messages of role, joined by newlines.
func (r Request) Text(role string) string {
	var parts []string
	for _, it := range r.Items {
		if it.Type == "message" && it.Role == role {
			parts = append(parts, it.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// wireRequest is the part of a Responses API body the server reads.
type wireRequest struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Input  []json.RawMessage `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
	Text   *struct {
		Format *struct {
			Type string `json:"type"`
		} `json:"format"`
	} `json:"text"`
}

type wireItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	CallID    string          `json:"call_id"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// parseResponses fills r from a Responses API body. It is lenient: content
// and outputs may be strings or part arrays, unknown item types are kept
// with their type only.
func parseResponses(r *Request, body []byte) error {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	r.Kind = KindResponses
	if w.Text != nil && w.Text.Format != nil && w.Text.Format.Type == "json_schema" {
		// The only structured-output request of a TUI session is the
		// thread title (0.171.0 asks with the model's tools, or none).
		r.Kind = KindTitle
	}
	r.Model, r.Stream = w.Model, w.Stream
	for _, t := range w.Tools {
		var named struct {
			Name string `json:"name"`
			Type string `json:"type"`
		}
		if json.Unmarshal(t, &named) == nil {
			if named.Name != "" {
				r.Tools = append(r.Tools, named.Name)
			} else if named.Type != "" {
				r.Tools = append(r.Tools, named.Type)
			}
		}
	}
	for _, raw := range w.Input {
		var wi wireItem
		if json.Unmarshal(raw, &wi) != nil {
			continue
		}
		it := Item{Type: wi.Type, Role: wi.Role, Name: wi.Name, CallID: wi.CallID}
		switch wi.Type {
		case "message":
			it.Text = contentText(wi.Content)
			it.Images = contentImages(wi.Content)
		case "function_call":
			it.Arguments = wi.Arguments
		case "custom_tool_call":
			it.Arguments = wi.Input
		case "function_call_output", "custom_tool_call_output":
			it.Output = contentText(wi.Output)
		case "reasoning":
			var parts []string
			for _, s := range wi.Summary {
				parts = append(parts, s.Text)
			}
			it.Text = strings.Join(parts, "\n")
		}
		r.Items = append(r.Items, it)
	}
	prompt := -1
	for i := len(r.Items) - 1; i >= 0; i-- {
		if it := r.Items[i]; it.Type == "message" && it.Role == "user" && !injected(it.Text) {
			prompt = i
			r.Prompt = it.Text
			break
		}
	}
	if strings.HasPrefix(strings.TrimSpace(r.Prompt), compactionMarker) {
		r.Kind = KindCompact
	}
	names := map[string]string{}
	lastModel := -1
	for i, it := range r.Items {
		switch it.Type {
		case "function_call", "custom_tool_call":
			names[it.CallID] = it.Name
			lastModel = i
		case "message":
			if it.Role == "assistant" {
				lastModel = i
			}
			if it.Role == "developer" {
				// The newest collaboration-mode block says the mode: Plan
				// mode, or another that ends it.
				if k := strings.LastIndex(it.Text, collaborationTag); k >= 0 {
					r.PlanMode = strings.HasPrefix(strings.TrimSpace(it.Text[k+len(collaborationTag):]), "# Plan Mode")
				}
			}
		case "function_call_output", "custom_tool_call_output":
			if i > prompt {
				r.StepsSincePrompt++
			}
		}
	}
	for i := lastModel + 1; i < len(r.Items) && lastModel >= 0; i++ {
		if it := r.Items[i]; it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			r.ToolOutputs = append(r.ToolOutputs, ToolOutput{CallID: it.CallID, Name: names[it.CallID], Output: it.Output})
		}
	}
	return nil
}

// collaborationTag opens the CLI's collaboration-mode instructions,
// "<collaboration_mode># Plan Mode …" in Plan mode.
const collaborationTag = "<collaboration_mode>"

// injectedRE matches a user message that is one tagged block of context
// the CLI wrote (<environment_context>, <turn_aborted>, …), not a prompt.
var injectedRE = regexp.MustCompile(`(?s)^\s*<([a-z_]+)>.*</([a-z_]+)>\s*$`)

func injected(text string) bool {
	m := injectedRE.FindStringSubmatch(text)
	return m != nil && m[1] == m[2]
}

// contentText flattens a content or output value: a string, or parts with
// text (input_text, output_text, …).
func contentText(raw json.RawMessage) string {
	return fakeapi.JoinText(raw, func(_, text string) bool { return text != "" })
}

// contentImages returns the input_image parts of a message's content.
func contentImages(raw json.RawMessage) []Image {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL string `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []Image
	for _, p := range parts {
		if p.Type != "input_image" {
			continue
		}
		im := Image{URL: p.ImageURL}
		if head, data, ok := strings.Cut(p.ImageURL, ","); ok && strings.HasPrefix(head, "data:") && strings.HasSuffix(head, ";base64") {
			im.URL = head + ","
			im.MediaType = strings.TrimSuffix(strings.TrimPrefix(head, "data:"), ";base64")
			im.Data, _ = base64.StdEncoding.DecodeString(data)
		}
		out = append(out, im)
	}
	return out
}
