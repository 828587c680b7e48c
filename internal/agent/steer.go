package agent

// Steering a run between turns: its slash commands, its permission mode
// and its model. A command is typed at the CLI's prompt as the operator
// would type it, after checking that the CLI's own command menu (which
// opens as "/" is typed) has exactly that command highlighted, so the
// Enter that submits it cannot pick another. A switch of mode or model is
// a short plan of Moves the driver makes from what the pane and the
// transcript show; every move ends on a checkpoint of the pane, so lab
// never reports a switch the CLI did not confirm.

// Move is one step of a switch. Exactly one of Command, Key and Pick is
// set.
type Move struct {
	// Command is a command line to submit at the CLI's prompt
	// ("/permissions :read-only"), as a slash command is.
	Command string
	// Key is a key to press, at most Times times, until Settled passes
	// (a mode-cycle key); each press must change what Settled reports.
	Key   string
	Times int
	// Pick builds, from the pane as it shows now, a recipe to play the
	// way answers are played (a picker walked by its labels); its
	// committing key ends it.
	Pick func(capture string) ([]Step, error)
	// Settled is what the pane shows once the move took effect.
	Settled Check
}
