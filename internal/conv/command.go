package conv

// Command is one slash command a run's CLI offers at its prompt: its
// built-in ones and the operator's and the project's own.
type Command struct {
	// Name is what follows the slash ("compact", "ns:deploy").
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Source says whose it is: SourceBuiltin (the CLI's own), SourceUser
	// (the operator's, in their home) or SourceProject (in the run's
	// folder).
	Source string `json:"source"`
	// Args says whether it takes text after its name: ArgsNone,
	// ArgsOptional or ArgsRequired (alone it would open a screen lab
	// cannot drive, or do nothing useful); ArgsHint shows what.
	Args     string `json:"args"`
	ArgsHint string `json:"args_hint,omitempty"`
	// Refused, when set, says why lab does not send this command: it
	// opens a screen lab cannot drive from here.
	Refused string `json:"refused,omitempty"`
	// NewSession says the command starts a new session; the run follows
	// it.
	NewSession bool `json:"new_session,omitempty"`
}

// Command sources.
const (
	SourceBuiltin = "builtin"
	SourceUser    = "user"
	SourceProject = "project"
)

// Whether a command takes arguments.
const (
	ArgsNone     = "none"
	ArgsOptional = "optional"
	ArgsRequired = "required"
)

// CommandRequest asks a run's CLI to run one of its commands, as typed at
// its prompt: "/" + Name, then Args when given.
type CommandRequest struct {
	Name string `json:"name"`
	Args string `json:"args,omitempty"`
}

// Line is the command line as typed at the prompt.
func (c CommandRequest) Line() string {
	if c.Args == "" {
		return "/" + c.Name
	}
	return "/" + c.Name + " " + c.Args
}

// Settings are what a live run's CLI uses now, as its transcript and its
// screen say (never what lab last asked for): its permission mode (a
// ProviderInfo mode value) and its model. Empty when not known.
type Settings struct {
	Mode  string `json:"mode,omitempty"`
	Model string `json:"model,omitempty"`
}

// ModeRequest asks a live run to switch to a permission mode.
type ModeRequest struct {
	Mode string `json:"mode"`
}

// ModelRequest asks a live run to switch to a model.
type ModelRequest struct {
	Model string `json:"model"`
}
