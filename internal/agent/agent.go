// Package agent is the seam between lab's provider-neutral layers (the live
// chat, the run lifecycle, the API and the web app) and the adapters of the
// agent CLIs lab drives (internal/claude, internal/codex). An adapter
// implements Provider; nothing above this package knows a CLI's file
// formats, hook payloads, screens, key recipes or flags.
//
// Every adapter has the same parts, in files of the same names, so the
// two read side by side:
//
//	provider.go          the Provider and its Driver: names, modes, wiring of the parts below
//	fold*.go             transcript bytes -> conv messages, incrementally (Fold)
//	line_decode.go       the peek, and the few fields of a line the fold reads
//	dialog.go            a dialog tool's input -> conv.Dialog
//	outcome.go           a dialog's recorded resolution -> conv.Outcome
//	state.go             which records move the conversational state
//	hooks.go, spool.go   the per-run hooks and what their events mean (Side)
//	permission*.go       permission prompts: the dialog, its diff, its options on the pane
//	pane.go              what a captured pane shows: pickers, the input box
//	recipe*.go           keystroke recipes with pane checkpoints (Driver)
//	validate.go          answers checked against the pending dialog
//	typing.go            which characters a reply may carry, and how to empty the input box
//	gate.go              the start-up folder-trust screen
//	spawn*.go, home.go   argv, binary and version, a run's opening, config and trust seeding
//	versions.go          the pinned and the verified CLI versions
//	commands*.go         the slash commands: the built-in ones per version, the operator's own
//	steer.go             the mode and model on screen, and the moves that switch them
//	prices.go            the models' windows and prices (dated) for the usage meter
//	history.go           the sessions a machine kept (History)
//	attach.go, external.go
//	                     processes lab did not start (Attacher): Claude Code's from its
//	                     session registry (registry.go), Codex's from /proc
//
// What the adapters share lives beside them, so that each adapter keeps
// only what its CLI's formats and screens mean: internal/foldkit (the
// fold's machinery: held lines, the message stream and its seqs, calls,
// results, pending dialogs, question inputs, tool outputs, state, the
// desync warning and the intended outcome; each Fold embeds it and
// supplies only its peek and line rules), internal/clikit (what they
// share outside the fold: answer checks by kind, permission summaries and
// option roles, pane text and lines, the input box read as the terminal draws it,
// the recipe builder, finding the
// binary, asking its version and argv flags, session-file heads and
// paths, the /proc reading and tmux location of processes lab did not
// start), internal/hookspool (the hook command, the spool folder reader,
// the payload fields both CLIs send, the current session and its calls),
// internal/jsonscan (the JSON scanner the folds use, member walks),
// internal/udiff (unified diffs). Their test and benchmark support is
// internal/foldkit/foldtest, internal/foldkit/foldgen (the generators),
// internal/fakeapi and internal/fakeapi/fakeapitest (the scripted APIs)
// and internal/clitest (the real-CLI harnesses).
//
// For attachments and the usage meter the seam gained PromptBox.Attached
// (an image attached by pasting its path shows in the box as a
// placeholder), Driver.ClearKeys (a prompt lab could not finish leaves
// nothing behind), Launch.Uploads (the folder the agent must be able to
// read) and Fold.Usage; typing a prompt with attachments, checked step by
// step on the box, is the same for every CLI and lives here (prompt.go).
//
// The seam grew twice for the second adapter: Command.Opening with
// Step.Until (Codex enters Plan mode only by a key, which it may drop),
// and Driver.Unannounced (the permission dialog of a call no hook
// announced, whose fields depend on the CLI's tool names). Driver.Dress
// also fills a plan's rows when the pane does not show them yet, so every
// pending plan reaches clients with conv.PlanOptions.
//
// Steering a run between turns (steer.go) added Provider.Commands (the
// CLI's slash commands per version, with the operator's own),
// Fold.Settings (the mode and model the transcript records), and the
// Driver's Menu, ClearKey and Literal (typing a command, or a message
// that must not be one) and SwitchMode and SwitchModel, which plan Moves
// the chat layer plays and checks on the pane.
package agent

import (
	"context"
	"time"

	"lab/internal/conv"
)

// Provider is one agent CLI. Its methods are safe for concurrent use.
type Provider interface {
	// Info names the provider and lists what a new run may choose.
	Info() conv.ProviderInfo

	// ResolveBin finds the configured binary (a path, or a name looked up
	// in PATH) and Version asks it for its version ("2.1.332").
	ResolveBin(bin string) (string, error)
	Version(ctx context.Context, bin string) (string, error)
	// VersionVerified reports whether the adapter was verified against a
	// CLI version (its real-CLI tests passed against it). lab drives an
	// unverified version all the same, but warns the operator.
	VersionVerified(version string) bool
	// CheckStart validates the provider-specific fields of a start request
	// (permission mode, model) for a lab running as euid. EInvalid.
	CheckStart(req conv.StartRequest, euid int) error
	// Prepare readies one run: it writes what the run needs into
	// spec.RunDir (hook settings, private config), marks spec.Cwd trusted
	// when asked, and returns the command line to start the CLI with.
	Prepare(ctx context.Context, spec Launch) (Command, error)

	// NewFold returns an empty transcript fold.
	NewFold() Fold
	// OpenSide returns the reader of a run's side channel (its hook spool
	// under runDir), shared by everyone who reads it.
	OpenSide(runDir string) Side
	// NewDriver returns how to act on a CLI of the given version.
	NewDriver(cliVersion string) Driver
	// NewHistory returns the sessions kept under the CLI's home.
	NewHistory(home string) History
	// Commands lists the slash commands a run of the CLI version offers
	// in cwd, home being the HOME it runs with: the built-in ones known
	// for that version, then the operator's and the project's own.
	// Unreadable files are left out.
	Commands(version, home, cwd string) []conv.Command
}

// Launch is what Prepare needs to know about a run.
type Launch struct {
	Bin       string
	RunDir    string // the run's private folder (exists)
	Home      string // the HOME the CLI runs with
	Cwd       string
	SeedTrust bool // mark Cwd trusted in the CLI's config first
	// Uploads is the folder the run's uploads are stored in (exists):
	// the agent must be able to read the files there, whatever its
	// working folder.
	Uploads string
	// Request is the run's start request; its Prompt already names the
	// files of Request.Files that are not images (conv.WithFileRefs):
	// Prepare hands the images over the way its CLI takes them.
	Request conv.StartRequest
}

// Command is how to start the CLI for a run.
type Command struct {
	Argv []string
	Env  map[string]string // added to the run's environment
	// Opening, when set, is played into the run's pane once the CLI is
	// up, for what no start flag can do (a mode only a key enters); the
	// first prompt is then typed by it rather than given in Argv. Its
	// keys may carry Until (a CLI that drops keys sent too soon); its
	// committing key submits the prompt.
	Opening []Step
}

// Fold turns a CLI's transcript into the chat stream incrementally: bytes
// written in any split fold to exactly what the whole file folds to, and
// the same bytes always give the same seqs. Only a tool getting its result,
// a dialog getting its outcome and an approved plan getting its approval
// mode change a message behind the end. A Fold
// is not safe for concurrent use.
type Fold interface {
	// Write feeds appended transcript bytes; an incomplete last line is
	// held until its newline. Malformed lines are skipped and counted.
	Write(p []byte)
	// Len is the number of messages (the last seq).
	Len() int
	Lines() int
	SkippedLines() int
	Bytes() int64
	// SessionID is the conversation id the transcript's lines carry.
	SessionID() string
	// TakeBackpatch returns the lowest seq changed at or below the Len of
	// the previous call (0 if none) and moves the mark to Len.
	TakeBackpatch() int
	// Resolved reports whether toolID's tool has a result or its dialog
	// an outcome.
	Resolved(toolID string) bool
	// Messages returns a window with conv.Query's semantics (copies).
	Messages(after, before, limit int) (msgs []conv.Message, hasMoreBefore bool)
	// SetIntents installs the lookup of what lab meant to answer, for the
	// desync warning. It is called under the caller's lock.
	SetIntents(fn func(toolID string) (*conv.Outcome, bool))
	// State is the state the transcript alone implies; PendingDialog the
	// dialog it shows waiting (a copy), or nil.
	State() conv.State
	PendingDialog() *conv.Dialog
	// Running returns the newest tool still waiting for its result, or
	// nil: what a permission prompt, if one shows, is about.
	Running() *conv.ToolCall
	// Settings are the permission mode and model the transcript last
	// recorded ("" where it recorded none).
	Settings() conv.Settings
	// Usage is what the conversation used of its model as its lines
	// recorded it (the context now, the session's tokens, an estimated
	// cost), nil before any usage was recorded.
	Usage() *conv.Usage
}

// Side reads a run's side channel: the events its hooks spooled. All of
// its state is derived from files, so a restarted lab reads the same.
type Side interface {
	// Dir is the folder to watch for changes.
	Dir() string
	// Read returns what the side channel says now.
	Read() (SideState, error)
	// Retire marks a dialog resolved (the transcript showed it), so it is
	// never served again, across restarts too.
	Retire(toolID string) error
	// Compact drops spooled events that can no longer change the state.
	Compact() error
}

// SideState is a run's side channel in neutral terms.
type SideState struct {
	// SessionID and TranscriptPath name the current conversation (a
	// /clear starts a new one); Source says how it started.
	SessionID      string
	TranscriptPath string
	Source         string
	// Pending are the dialogs the hooks announced and nothing resolved
	// yet, oldest first. A permission dialog's options are not known from
	// hooks; the Driver reads them off the pane (Dress).
	Pending []*conv.Dialog
	// Prompt is the last prompt submitted, at PromptAt; TurnEndAt is when
	// the last turn ended. Zero when none.
	Prompt    string
	PromptAt  time.Time
	TurnEndAt time.Time
	// Waiting identifies the latest announcement that the CLI waits on
	// the operator for something unstructured ("" when none): it changes
	// with each announcement.
	Waiting string
}

// Driver acts on one CLI version's screens through its pane. Recipes are
// built from the pane as it shows now, so rows and options are found by
// their labels, never by a table of positions; a picker lab cannot map is
// a conflict, never a guessed key.
type Driver interface {
	// Recipe validates a against the pending dialog d and returns the
	// steps that answer it, given the pane capture now. EInvalid for a
	// malformed answer, EConflict when d is not answerable or the pane
	// does not show a picker lab can map to it.
	Recipe(d *conv.Dialog, a conv.Answer, capture string) ([]Step, error)
	// Intended is the outcome the transcript should record if a lands as
	// meant (for the desync warning), nil when it cannot tell.
	Intended(d *conv.Dialog, a conv.Answer) *conv.Outcome
	// Rewind returns how many Up keys bring back to its first row a
	// picker someone only moved the cursor of, or 0.
	Rewind(capture string, fresh Check) int
	// Dress fills in what only the pane shows about the pending dialog d
	// (a plan's approval rows, a permission prompt's options), reporting
	// whether the pane shows d's picker. A plan whose picker the pane does
	// not show gets the rows this CLI version is known to show (with
	// their PlanOptions), so a client always has rows to offer.
	Dress(d *conv.Dialog, capture string) bool
	// Unannounced returns the permission dialog of call, a tool call
	// still running whose prompt the pane shows though no hook announced
	// it (an attached CLI has no hooks): its input as the fold summarised
	// it. Dress then reads the options off the pane.
	Unannounced(call *conv.ToolCall) *conv.Dialog
	// Prompt reads the CLI's input box; false when the pane shows none.
	Prompt(capture string) (PromptBox, bool)
	// Typable checks a reply against what the CLI's input box takes as
	// typed and returns the text to paste (in the form the CLI records
	// it, e.g. composed to NFC). Characters the CLI would drop or alter
	// beyond that are refused before any key: EInvalid naming each.
	Typable(text string) (string, error)
	// ClearKey is the key that deletes the input box's text back to the
	// start of a line, or the line break before it when the line is empty
	// (so repeating it empties the box); it does nothing to an empty box.
	ClearKey() string
	// ClearKeys are the keys that empty the input box while it holds
	// attachments as well as text (sent only then: on an empty box they
	// may mean something else), so a prompt with attachments lab could
	// not submit leaves nothing behind. ClearKey, checked key by key,
	// removes text alone.
	ClearKeys() []string
	// InterruptKey is the key that stops a turn or declines a picker.
	InterruptKey() string
	// Look says what the CLI's screen shows, for the live overlay.
	Look(capture string) Look
	// Drawing returns the agent's words the screen shows being written
	// in the current turn: the last thing drawn below the prompt, when it
	// is text (not a tool call or a status line), its wrapped lines joined
	// as far as the screen tells; "" when there is none. It may be words
	// the transcript already holds: the live view checks.
	Drawing(capture string) string
	// Gate recognises the start-up screen asking whether to trust the
	// folder cwd (shown when the CLI lost lab's trust entry) and returns
	// the next key towards accepting it, checked against the cursor row;
	// false when the pane shows anything else.
	Gate(capture, cwd string) (key string, ok bool)

	// Menu reads the CLI's slash-command menu (open while the input box
	// holds a "/" word): the command its cursor is on, without the
	// slash; false when no menu shows.
	Menu(capture string) (highlighted string, open bool)
	// Literal returns text as it must be typed for the CLI to take it as
	// a message, never as one of its commands (text starting with a
	// slash); EConflict when the CLI cannot take it as a message.
	Literal(text string) (string, error)
	// Settings are what the screen shows of the permission mode and the
	// model ("" for what it does not show).
	Settings(capture string) conv.Settings
	// SwitchMode returns the moves that bring the CLI, idle at its
	// prompt as capture shows it, to permission mode mode (none when the
	// screen shows it there already). EInvalid for a mode a live run
	// cannot switch to; EConflict when the screen does not say enough to
	// plan the switch.
	SwitchMode(mode, capture string) ([]Move, error)
	// SwitchModel likewise for a model (a ProviderInfo model value).
	SwitchModel(model, capture string) ([]Move, error)
}

// LookKind is what a CLI's screen shows.
type LookKind string

const (
	LookPrompt     LookKind = "prompt"     // the input box; the CLI is idle
	LookBusy       LookKind = "busy"       // the CLI is working
	LookPicker     LookKind = "picker"     // a dialog's picker (a question, a plan)
	LookPermission LookKind = "permission" // a tool permission prompt
	LookUnknown    LookKind = "unknown"    // none of these: a screen lab does not understand
)

// Look is what a CLI's screen shows.
type Look struct {
	Kind LookKind
	// Text is the screen's text, for a screen lab does not understand.
	Text string
	// Warning, with LookBusy, says the turn is stuck while the CLI works:
	// an API error it retries with a countdown only its screen shows.
	Warning *conv.Lifecycle
}

// PromptBox is the CLI's input box as a pane shows it.
type PromptBox interface {
	// Holds reports whether the box shows text as a terminal draws it
	// (clikit.BoxShows: wrapped, composed, its emoji and invisible
	// characters drawn or not), or as the placeholder a long paste
	// collapses into, the placeholders of its attachments aside.
	Holds(text string) bool
	// Attached counts the attachments the box shows (images attached by
	// pasting their path, each shown as a placeholder).
	Attached() int
	// Empty reports whether the box holds no text and no attachment.
	Empty() bool
	// Shown is what the box shows, for error messages.
	Shown() string
}

// History lists the sessions a CLI kept on disk.
type History interface {
	// List returns every session, newest first.
	List() ([]conv.Session, error)
	// Path returns session id's transcript; ENotFound, EInvalid.
	Path(id string) (string, error)
}
