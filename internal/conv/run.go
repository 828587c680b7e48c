package conv

import "time"

// Run is an agent CLI process lab started (or adopted) in tmux.
type Run struct {
	ID string `json:"id"`
	// Machine names the lab the run lives on: this one's name, or a
	// peer's for a run a hub relays (its ID is then "<peer>~<id>").
	Machine        string     `json:"machine,omitempty"`
	Provider       string     `json:"provider"` // which agent CLI: a ProviderInfo.Name
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
	ArchivedAt  *time.Time `json:"archived_at,omitempty"` // hidden from the runs list
	// EndReason says how an ended run ended: "stopped", "exited",
	// "detached" (an attached run lab stopped following; the process runs
	// on), or why its start failed.
	EndReason string `json:"end_reason,omitempty"`
	// Attached is set on a run that follows a CLI process lab did not
	// start. Stopping it only detaches: lab never ends such a process.
	Attached *Attachment `json:"attached,omitempty"`
	// Attention ranks how much the run wants its operator; the live view
	// derives it with LastActivity and Preview from the current chat.
	Attention    Attention  `json:"attention"`
	LastActivity *time.Time `json:"last_activity,omitempty"` // the newest message's time
	Preview      string     `json:"preview,omitempty"`       // the last message, one line
	// SeenAt is how far the operator has read the run: when a page last
	// had its chat on screen (or its last activity, if that was later).
	SeenAt *time.Time `json:"seen_at,omitempty"`
	// Worktree is the git worktree the run works in, when it asked for
	// one (its Cwd is inside it).
	Worktree *Worktree `json:"worktree,omitempty"`
	// Usage is what the run's conversation used of its model (a live
	// run's, and GET /runs/{id}'s), nil until the CLI recorded any.
	Usage *Usage `json:"usage,omitempty"`
}

// Attachment is how lab reaches a CLI process it did not start.
type Attachment struct {
	PID  int    `json:"pid"`
	Pane string `json:"pane,omitempty"` // "session:%3" on the operator's tmux server, when known
	// ReadOnly says why lab can only follow the session ("" when it can
	// answer and reply through the pane): not in tmux, or the pane could
	// not be verified to host the process.
	ReadOnly string `json:"read_only,omitempty"`
}

// StartRequest asks for a new run.
type StartRequest struct {
	Provider       string `json:"provider,omitempty"` // default: the server's default provider
	Cwd            string `json:"cwd"`
	Prompt         string `json:"prompt,omitempty"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	// Resume continues the session with this id (in Cwd, the session's
	// folder) instead of starting a new conversation.
	Resume string `json:"resume,omitempty"`
	// Title replaces the default title (the first prompt, else the
	// folder name).
	Title string `json:"title,omitempty"`
	// Worktree runs the agent in a new git worktree of Cwd's repository,
	// on a new branch from its current HEAD, instead of in Cwd itself.
	Worktree bool `json:"worktree,omitempty"`
	// Machine starts the run on that machine (a peer's name) instead of
	// this one; the hub forwards the request without it.
	Machine string `json:"machine,omitempty"`
	// Uploads are files sent for the first prompt (POST /uploads), by
	// id; Files are the same uploads resolved by the run layer.
	Uploads []string `json:"uploads,omitempty"`
	Files   []Upload `json:"-"`
}

// Session is an agent conversation on disk, run by lab or not.
type Session struct {
	ID          string    `json:"id"` // the CLI's session id (transcript file name)
	Machine     string    `json:"machine,omitempty"`
	Provider    string    `json:"provider"`
	ProjectPath string    `json:"project_path"`
	Title       string    `json:"title"` // first user prompt
	Size        int64     `json:"size"`
	ModTime     time.Time `json:"mtime"`
	RunID       string    `json:"run_id,omitempty"`   // the run that owns it, if any
	RunLive     bool      `json:"run_live,omitempty"` // that run is live: open it rather than resume
	// Messages is how many chat messages the conversation holds, and
	// LastActivity the time of the newest; both are 0 until indexed.
	Messages     int       `json:"messages"`
	LastActivity time.Time `json:"last_activity,omitzero"`
	// TranscriptPath is where the transcript is, for the server's own
	// indexing; it stays off the wire.
	TranscriptPath string `json:"-"`
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
	Type         string `json:"type"` // run.changed, run.messages.changed, run.live.changed, machine.changed, heartbeat
	RunID        string `json:"run_id,omitempty"`
	Machine      string `json:"machine,omitempty"` // machine.changed: the peer whose reachability changed
	State        State  `json:"state,omitempty"`
	BackpatchSeq int    `json:"backpatch_seq,omitempty"`
	// EveryMS, on a heartbeat, is how often heartbeats come: a client
	// that hears nothing for a few of them takes the stream for dead.
	EveryMS int64 `json:"every_ms,omitempty"`
}

// Event types.
const (
	EventRunChanged      = "run.changed"
	EventMessagesChanged = "run.messages.changed"
	EventMachineChanged  = "machine.changed" // a peer became reachable or not
	EventHeartbeat       = "heartbeat"
	// EventLiveChanged says the text a working run's CLI is drawing
	// changed (Page.LiveText): refetch after the last held seq.
	EventLiveChanged = "run.live.changed"
)

// ProviderInfo describes one agent CLI lab can run.
type ProviderInfo struct {
	Name  string `json:"name"`  // the id runs and sessions carry
	Label string `json:"label"` // the CLI's name for people
	// Modes are the permission modes a new run may choose, the CLI's
	// default first when it has one.
	Modes       []PermissionMode `json:"modes"`
	DefaultMode string           `json:"default_mode,omitempty"`
	// Resume says a run can continue one of the CLI's sessions; Attach
	// that lab can follow the CLI's processes it did not start.
	Resume bool `json:"resume,omitempty"`
	Attach bool `json:"attach,omitempty"`
	// PromptOptional says a run started without a first prompt is
	// meaningful (the CLI waits for one, typed from the chat); the
	// new-run form asks for a prompt otherwise.
	PromptOptional bool `json:"prompt_optional,omitempty"`
	// Attachments says the CLI takes files with a prompt: images as image
	// content, other files as paths its agent reads.
	Attachments bool `json:"attachments,omitempty"`
	// SwitchModes are the Modes a live run can be switched to while it
	// waits for input; Models the models it can be switched to (the
	// pinned CLI's).
	SwitchModes []string      `json:"switch_modes,omitempty"`
	Models      []ModelChoice `json:"models,omitempty"`
}

// ModelChoice is one model a run can switch to.
type ModelChoice struct {
	Value string `json:"value"` // what the CLI's model command takes
	Label string `json:"label"`
	Help  string `json:"help,omitempty"` // one line
}

// PermissionMode is one way a CLI can treat the agent's tool calls.
type PermissionMode struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Help  string `json:"help"` // one line
}
