package conv

import "time"

// Run is an agent CLI process lab started (or adopted) in tmux.
type Run struct {
	ID             string     `json:"id"`
	Provider       string     `json:"provider"` // which agent CLI: "claude", …
	Cwd            string     `json:"cwd"`
	Title          string     `json:"title"` // first prompt, else the directory name
	Model          string     `json:"model,omitempty"`
	PermissionMode string     `json:"permission_mode,omitempty"`
	State          State      `json:"state"`
	Pending        bool       `json:"pending"`         // a dialog waits for the operator
	Alert          *Lifecycle `json:"alert,omitempty"` // what the CLI's screen shows that lab does not understand
	SessionID      string     `json:"session_id,omitempty"`
	TranscriptPath string     `json:"transcript_path,omitempty"`
	CLIVersion     string     `json:"cli_version,omitempty"`
	// CLIVerified is true when CLIVersion is one the provider's adapter
	// was verified against; an unverified CLI is driven all the same, but
	// the operator is told.
	CLIVerified bool       `json:"cli_verified"`
	StartedAt   time.Time  `json:"started_at"`
	EndedAt     *time.Time `json:"ended_at,omitempty"`
}

// StartRequest asks for a new run.
type StartRequest struct {
	Provider       string `json:"provider,omitempty"` // default: the server's default provider
	Cwd            string `json:"cwd"`
	Prompt         string `json:"prompt,omitempty"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
}

// Session is an agent conversation on disk, run by lab or not.
type Session struct {
	ID          string    `json:"id"` // the CLI's session id (transcript file name)
	Provider    string    `json:"provider"`
	ProjectPath string    `json:"project_path"`
	Title       string    `json:"title"` // first user prompt
	Size        int64     `json:"size"`
	ModTime     time.Time `json:"mtime"`
	RunID       string    `json:"run_id,omitempty"` // the run that owns it, if any
}

// Query selects a window of a stream: messages with After < seq < Before,
// at most Limit of them, the newest ones when both cursors are absent or
// only Before is given, the oldest ones after After otherwise.
type Query struct {
	After  int
	Before int
	Limit  int
}

// Event is a small invalidation pushed to live clients; they refetch.
type Event struct {
	Type         string `json:"type"` // run.changed, run.messages.changed, heartbeat
	RunID        string `json:"run_id,omitempty"`
	State        State  `json:"state,omitempty"`
	BackpatchSeq int    `json:"backpatch_seq,omitempty"`
}

// Event types.
const (
	EventRunChanged      = "run.changed"
	EventMessagesChanged = "run.messages.changed"
	EventHeartbeat       = "heartbeat"
)

// ProviderInfo describes one agent CLI lab can run.
type ProviderInfo struct {
	Name  string `json:"name"`  // the id runs carry: "claude", …
	Label string `json:"label"` // for people: "Claude Code"
	// Modes are the permission modes a new run may choose, the CLI's
	// default first when it has one.
	Modes       []PermissionMode `json:"modes"`
	DefaultMode string           `json:"default_mode,omitempty"`
}

// PermissionMode is one way a CLI can treat the agent's tool calls.
type PermissionMode struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Help  string `json:"help"` // one line
}
