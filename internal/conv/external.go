package conv

import "time"

// ExternalSession is a live agent CLI process on this machine that lab did
// not start (the operator ran it in a terminal), which lab can attach to.
type ExternalSession struct {
	Machine   string    `json:"machine,omitempty"`
	Provider  string    `json:"provider"`
	PID       int       `json:"pid"`
	SessionID string    `json:"session_id"`
	Cwd       string    `json:"cwd"`
	Name      string    `json:"name,omitempty"`
	Title     string    `json:"title,omitempty"` // the first prompt, once there is one
	Version   string    `json:"cli_version,omitempty"`
	StartedAt time.Time `json:"started_at,omitzero"`
	// Status is what the CLI says it does: idle, busy or waiting (then
	// WaitingFor says on what).
	Status     string `json:"status,omitempty"`
	WaitingFor string `json:"waiting_for,omitempty"`
	// Pending says a dialog (a question or a plan) waits for its operator
	// at the end of its transcript, whatever Status says (the CLI reports
	// such a session busy).
	Pending bool `json:"pending,omitempty"`
	// Tmux locates its pane when it runs in tmux; ReadOnly says why lab
	// could only follow it ("" when lab can type into its pane).
	Tmux     *TmuxPane `json:"tmux,omitempty"`
	ReadOnly string    `json:"read_only,omitempty"`
	// TranscriptPath is the conversation's transcript (it may not exist
	// yet: the CLI writes it at the first prompt).
	TranscriptPath string `json:"transcript_path,omitempty"`
	// RunID is the live run already following this session, if any.
	RunID string `json:"run_id,omitempty"`
	// ProcStart tells this process from a later one with the same pid.
	ProcStart string `json:"-"`
}

// TmuxPane is a pane on some tmux server.
type TmuxPane struct {
	Socket  string `json:"socket"`
	Pane    string `json:"pane"` // "%3"
	Session string `json:"session,omitempty"`
}
