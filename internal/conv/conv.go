// Package conv holds lab's provider-neutral conversation types: the messages
// a chat shows, the dialogs an agent asks, their outcomes and the derived
// conversational state. It does no I/O and imports nothing else of lab's, so
// every adapter (an agent CLI's fold, the HTTP API, the store) meets the
// others only through these types. Nothing here names one CLI's tools,
// fields or wording: a test pins that.
package conv

import "time"

// Kind says what a Message is.
type Kind string

const (
	KindText      Kind = "text"      // Role is user or assistant; Text is markdown.
	KindThinking  Kind = "thinking"  // The model's visible reasoning.
	KindTool      Kind = "tool"      // A tool call; Tool is set.
	KindDialog    Kind = "dialog"    // A question or plan approval; Dialog is set.
	KindLifecycle Kind = "lifecycle" // Interrupts, errors, command output; Lifecycle is set.
)

// Role of a text message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one item of the chat stream. Seq is its 1-based position; the
// same transcript bytes always fold to the same seqs. ContentHash changes
// whenever the message's visible content changes (a tool gets its result, a
// dialog gets its outcome), so a client can tell a back-patch from a repeat.
type Message struct {
	Seq       int        `json:"seq"`
	Kind      Kind       `json:"kind"`
	Role      Role       `json:"role,omitempty"`
	Time      time.Time  `json:"time,omitzero"`
	Text      string     `json:"text,omitempty"`
	Tool      *ToolCall  `json:"tool,omitempty"`
	Dialog    *Dialog    `json:"dialog,omitempty"`
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`
	// Attachments are the images and files a user message came with.
	Attachments []AttachedFile `json:"attachments,omitempty"`
	ContentHash string         `json:"content_hash"`
}

// ToolStatus is the state of a tool call.
type ToolStatus string

const (
	ToolRunning ToolStatus = "running"
	ToolOK      ToolStatus = "ok"
	ToolError   ToolStatus = "error"
)

// ToolCall is a tool the agent ran. Output is truncated for display;
// OutputBytes is the size of the full output and OutputTruncated says
// whether Output is a prefix of it.
type ToolCall struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Input           string     `json:"input"` // one-line summary of the input
	Status          ToolStatus `json:"status"`
	Output          string     `json:"output,omitempty"`
	OutputBytes     int        `json:"output_bytes,omitempty"`
	OutputTruncated bool       `json:"output_truncated,omitempty"`
	// Detail is the input's main text in full where the one-line Input
	// cuts it (a multi-line command, the content a file write puts), at
	// most a few KB; DetailTruncated says it is a prefix.
	Detail          string `json:"detail,omitempty"`
	DetailTruncated bool   `json:"detail_truncated,omitempty"`
	// Decision is how the operator decided the call's permission prompt,
	// when it went through one (whoever answered: terminal or lab).
	Decision *Decision `json:"decision,omitempty"`
	// Files are the files the call writes, as the agent named them
	// (absolute, or relative to the session's folder), when its input
	// says; a shell command that writes files names none.
	Files []string `json:"files,omitempty"`
}

// Decision is the recorded answer to a tool's permission prompt.
type Decision struct {
	Allowed bool `json:"allowed"`
	// Scope of an allowance: "once", or "always" (a rule was saved).
	Scope string `json:"scope,omitempty"`
	// Feedback is what the operator told the agent with a denial.
	Feedback string `json:"feedback,omitempty"`
}

// Level of a lifecycle note.
type Level string

const (
	LevelInfo    Level = "info"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

// Lifecycle is a note about the conversation rather than part of it.
type Lifecycle struct {
	Level Level  `json:"level"`
	Text  string `json:"text"`
}

// DialogKind says which picker a dialog is.
type DialogKind string

const (
	DialogQuestion   DialogKind = "question"   // one or more questions (a form when several)
	DialogPlan       DialogKind = "plan"       // a plan approval
	DialogPermission DialogKind = "permission" // may the agent run this tool call?
)

// Dialog is a question, a plan approval or a permission prompt the agent
// raised. Outcome nil means pending; non-nil means answered, and question
// and plan dialogs stay in the stream as history (a permission prompt is
// only ever pending: its decision shows on the tool's chip). Prompt texts,
// the plan, commands and diffs are never truncated.
type Dialog struct {
	ToolID    string     `json:"tool_id"`
	Kind      DialogKind `json:"kind"`
	Questions []Question `json:"questions,omitempty"`
	Plan      string     `json:"plan,omitempty"`
	PlanRows  []string   `json:"plan_rows,omitempty"` // approval picker rows (labels), when known
	// PlanOptions are the same rows with what each one does, so a client
	// offers them without knowing any CLI's wording.
	PlanOptions []PlanOption `json:"plan_options,omitempty"`
	Permission  *Permission  `json:"permission,omitempty"`
	Answerable  bool         `json:"answerable"`
	Outcome     *Outcome     `json:"outcome"`
	// Shown is when lab first saw the dialog's picker on the CLI's pane
	// (zero until then). Only lab's own answers use it: a key that acts
	// on a picker that has shown for a while needs no grace.
	Shown time.Time `json:"-"`
}

// Permission is what a permission prompt asks: may the agent make this
// tool call? Exactly one of Command, Diff/Path or Summary carries the
// call, readable on a phone.
type Permission struct {
	Tool  string `json:"tool"`            // the tool's name as the agent calls it
	Title string `json:"title,omitempty"` // the prompt's heading as the CLI shows it
	// Question is the prompt's question ("Do you want to proceed?").
	Question string `json:"question,omitempty"`
	// Command and Description: a shell command to run.
	Command     string `json:"command,omitempty"`
	Description string `json:"description,omitempty"`
	// Path and Diff: a file change, the diff a unified diff lab computed
	// (new files as all-added lines).
	Path string `json:"path,omitempty"`
	Diff string `json:"diff,omitempty"`
	// Summary: any other call, its input as "key: value" lines.
	Summary string `json:"summary,omitempty"`
	// Options are the answers the CLI offers right now, read off its
	// screen, in order.
	Options []PermissionOption `json:"options"`
}

// PermissionOption is one answer a permission prompt offers.
type PermissionOption struct {
	Label string     `json:"label"` // as the CLI shows it
	Role  OptionRole `json:"role"`
	// Feedback says the option takes text for the agent (a denial that
	// tells it what to do differently).
	Feedback bool `json:"feedback,omitempty"`
}

// OptionRole says what a permission option does.
type OptionRole string

const (
	RoleAllowOnce   OptionRole = "allow_once"
	RoleAllowAlways OptionRole = "allow_always" // saves a rule (the label names it)
	RoleSwitchMode  OptionRole = "switch_mode"  // allows and changes the session's permission mode
	RoleDeny        OptionRole = "deny"
	RoleUnknown     OptionRole = "unknown" // shown, but lab cannot tell what it does: not answerable
)

// Pending reports whether the dialog still waits for an answer.
func (d *Dialog) Pending() bool { return d != nil && d.Outcome == nil }

// Question is one question of a question dialog.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header,omitempty"`
	MultiSelect bool     `json:"multi_select"`
	Options     []Option `json:"options"`
}

// Option is one listed choice of a question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Outcome is what a dialog's resolution recorded, for display only and best
// effort. Dismissed is true whenever it resolved without a readable answer
// (declined, interrupted, timed out with no answers).
type Outcome struct {
	Dismissed bool             `json:"dismissed"`
	Results   []QuestionResult `json:"results,omitempty"` // one per question, in dialog order
	Approved  bool             `json:"approved"`          // plans: approved (false for a rejection)
	Feedback  string           `json:"feedback,omitempty"`
	// ApprovalMode says how the agent goes on after an approved plan, when
	// the record shows it: ApprovalAuto or ApprovalManual; "" when unknown.
	ApprovalMode string `json:"approval_mode,omitempty"`
}

// Approval modes of an approved plan.
const (
	ApprovalAuto   = "auto"   // the agent proceeds on its own, checking risky actions itself
	ApprovalManual = "manual" // the agent asks before each edit
	ApprovalFresh  = "fresh"  // the agent implements it in a new conversation, its context cleared
)

// PlanOption is one row of a plan approval picker: the label as the CLI
// shows it and what choosing it does.
type PlanOption struct {
	Label string   `json:"label"`
	Role  PlanRole `json:"role"`
	// Mode says how the agent goes on after an approving row (one of the
	// Approval* modes), "" when the row does not say.
	Mode string `json:"mode,omitempty"`
}

// PlanRole says what a plan picker row does.
type PlanRole string

const (
	PlanApprove  PlanRole = "approve"  // approves the plan
	PlanFeedback PlanRole = "feedback" // keeps planning; takes the operator's feedback (required)
	PlanOther    PlanRole = "other"    // lab does not choose it: answer it at the terminal
)

// QuestionResult is the recorded answer to one question: the listed labels
// chosen (in toggle order for multi-select) and any free text.
type QuestionResult struct {
	Question  string   `json:"question"`
	Chosen    []string `json:"chosen"`
	OtherText string   `json:"other_text,omitempty"`
}

// State is a conversation's derived conversational state.
type State string

const (
	StateWorking    State = "working"     // the agent is busy
	StateQuestion   State = "question"    // a dialog is pending, and only then
	StateNeedsInput State = "needs_input" // the turn ended, or the CLI waits on something unstructured
	StateIdle       State = "idle"        // nothing happened yet
	StateEnded      State = "ended"       // the process is gone
)

// Valid reports whether s is one of the known states.
func (s State) Valid() bool {
	switch s {
	case StateWorking, StateQuestion, StateNeedsInput, StateIdle, StateEnded:
		return true
	}
	return false
}
