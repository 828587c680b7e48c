package conv

import "time"

// Answer is what the operator chose for a pending dialog. For a question
// dialog, Answers holds one entry per question, in order. For a plan,
// Option is the approval picker row (0-based) and Feedback the text typed
// into the feedback row.
type Answer struct {
	ToolID   string           `json:"tool_id"`
	Answers  []QuestionAnswer `json:"answers,omitempty"`
	Option   *int             `json:"option,omitempty"`
	Feedback string           `json:"feedback,omitempty"`
}

// QuestionAnswer answers one question: indexes into its options (several
// only for multi-select, in the order to toggle them) and optional free
// text for the "Type something" row.
type QuestionAnswer struct {
	Chosen    []int  `json:"chosen"`
	OtherText string `json:"other_text,omitempty"`
}

// Page is a window of a conversation's stream as the API serves it.
// PendingDialog is served beside the stream, never inside it.
type Page struct {
	TranscriptID  string  `json:"transcript_id"`
	State         State   `json:"state"`
	PendingDialog *Dialog `json:"pending_dialog"`
	// Alert is a problem the CLI's screen shows that the stream cannot
	// (a screen lab does not understand), served beside it; nil when none.
	Alert         *Lifecycle `json:"alert,omitempty"`
	Messages      []Message  `json:"messages"`
	FirstSeq      int        `json:"first_seq"`
	LastSeq       int        `json:"last_seq"`
	HasMoreBefore bool       `json:"has_more_before"`
	// Progress says what a working run is doing now; nil unless working.
	Progress *Progress `json:"progress,omitempty"`
	// LiveText is the agent's words the CLI is drawing while the run
	// works, before the transcript has them; nil when there are none (or
	// nobody watches).
	LiveText *LiveText `json:"live_text,omitempty"`
	// Partials are lab's own copies of words a CLI drew but never
	// recorded, placed after the window's messages they follow.
	Partials []Partial `json:"partials,omitempty"`
	// Settings are the permission mode and model a live run uses now;
	// nil when neither is known (and for history).
	Settings *Settings `json:"settings,omitempty"`
	// Usage is what the conversation used of its model, nil until the
	// CLI recorded any.
	Usage *Usage `json:"usage,omitempty"`
}

// LiveText is the agent's words a working run's CLI is drawing, read off
// its screen (wrapped lines joined as far as the screen tells), served
// beside the stream like the pending dialog: the transcript's message
// replaces it when it lands.
type LiveText struct {
	Text string `json:"text"`
	// Since is when the CLI began drawing these words.
	Since time.Time `json:"since"`
	// AfterSeq is the stream's last seq when they began: they belong
	// after it, and a text message of the agent's after it is them.
	AfterSeq int `json:"after_seq"`
}

// Partial is lab's copy of words a CLI drew while a turn streamed but
// never recorded (the turn was interrupted, and the CLI keeps no partial
// text): what the operator saw, served beside the stream after AfterSeq.
type Partial struct {
	AfterSeq int       `json:"after_seq"`
	Text     string    `json:"text"`
	Time     time.Time `json:"time"`
}

// Progress is a working run's live activity, served beside the stream
// like the pending dialog: when the agent started working, the tool it
// runs now, and a warning when the turn is stuck (an API error being
// retried) rather than making headway.
type Progress struct {
	Since   time.Time  `json:"since"`
	Tool    *ToolCall  `json:"tool,omitempty"`
	Warning *Lifecycle `json:"warning,omitempty"`
	// Command is the slash command the CLI works on ("/compact"), when
	// lab sent one and the work is its.
	Command string `json:"command,omitempty"`
}
