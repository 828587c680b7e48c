package hookspool

import (
	"encoding/json"
	"time"
)

// The hook events both CLIs fire, with the same names (hook_event_name)
// and meanings. Claude Code also fires Notification; Codex has none.
const (
	SessionStart      = "SessionStart"
	UserPromptSubmit  = "UserPromptSubmit"
	PreToolUse        = "PreToolUse"
	PostToolUse       = "PostToolUse"
	PermissionRequest = "PermissionRequest"
	Stop              = "Stop"
)

// Event is what a hook payload of either CLI carries (Codex sends Claude
// Code's fields, for hook compatibility). An adapter's payload type embeds
// it and adds its CLI's own fields. Fields an event does not carry are
// empty.
type Event struct {
	Name string    // hook_event_name, from the file name
	File string    // base name in the spool dir
	Time time.Time // when the hook ran (from the file name)

	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode"`

	Source string `json:"source"` // SessionStart: startup, resume, clear…
	Model  string `json:"model"`  // SessionStart
	Prompt string `json:"prompt"` // UserPromptSubmit

	ToolName     string          `json:"tool_name"`   // Pre/PostToolUse, PermissionRequest
	ToolUseID    string          `json:"tool_use_id"` // Pre/PostToolUse (a PermissionRequest has none)
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"` // PostToolUse

	LastAssistantMessage string `json:"last_assistant_message"` // Stop

	Raw json.RawMessage `json:"-"` // the payload as the CLI sent it
	Key Key             `json:"-"` // the file's name, parsed
}

// Hook returns the event's common fields (an adapter's payload gets this
// method by embedding Event).
func (e *Event) Hook() *Event { return e }

// Payload is an adapter's hook payload type: a pointer to a struct that
// embeds Event.
type Payload interface {
	comparable
	Hook() *Event
}

// Parse reads one spooled file into a new T, the parse function of a Dir
// of an adapter's payloads. A spooled file is complete by construction; a
// bad one is not going to get better, so it is remembered as an empty
// event.
func Parse[T any, P interface {
	*T
	Payload
}](k Key, b []byte) P {
	p := P(new(T))
	if json.Unmarshal(b, p) != nil {
		p = P(new(T))
	}
	e := p.Hook()
	e.Name, e.File, e.Raw, e.Key, e.Time = k.Event, k.Name, b, k, k.Time()
	return p
}
