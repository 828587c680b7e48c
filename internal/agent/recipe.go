package agent

import "fmt"

// A recipe is how lab answers a dialog through a CLI's terminal screen:
// the named keys and pastes to play into the pane, in order, with
// checkpoints between them. A checkpoint (StepExpect) is a condition on the
// pane that must hold before the next step; the player polls the pane until
// it does or gives up without sending anything more. The keys between two
// checkpoints need no look at the pane, so the player sends them in one
// burst. Every key that changes state (a toggle, a paste, Enter) is
// preceded by a checkpoint on the cursor row, so the committing key is
// never pressed blind.

// StepKind says what a step does.
type StepKind int

const (
	StepExpect StepKind = iota // wait until the pane passes Check
	StepKey                    // send one named key
	StepPaste                  // paste Text (bracketed)
)

// Step is one action of a recipe.
type Step struct {
	Kind  StepKind
	Key   string // StepKey
	Text  string // StepPaste
	Check Check  // StepExpect
	// Commit marks the key that makes the answer final. Everything before
	// it can still be abandoned without an answer landing.
	Commit bool
	// Acts marks a key that changes the picker's state rather than moving
	// its cursor (a toggle, a paste, Enter): the player waits until the
	// picker has shown long enough for the CLI to take it.
	Acts bool
	// Until, on a key, is what the pane shows once the CLI took it: a
	// player that does not see it after a while sends the key again, a
	// few times at most (a CLI drops keys sent too soon after a screen
	// appears). Only for keys that are safe to repeat while not taken.
	Until Check
}

func (s Step) String() string {
	switch s.Kind {
	case StepKey:
		if s.Commit {
			return s.Key + " (commit)"
		}
		return s.Key
	case StepPaste:
		return fmt.Sprintf("paste %q", s.Text)
	default:
		return "expect " + s.Check.What()
	}
}

// Check is a checkpoint on a captured pane.
type Check interface {
	// Match reports how the capture differs from what is expected (nil
	// when it matches) and names the screen it shows, so a player can tell
	// a new picker (a form advancing) from the same one with its cursor
	// moved.
	Match(capture string) (screen string, err error)
	// What names the checkpoint in errors and logs.
	What() string
}
