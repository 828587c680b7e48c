package agent

import (
	"context"

	"lab/internal/conv"
)

// Attacher is a Provider whose CLI processes lab can follow without having
// started them (the operator ran one in a terminal): it lists them from
// the CLI's own records, and reads an attached one's state without a hook
// spool. Lab never ends such a process; it only stops following it.
type Attacher interface {
	// External lists the live interactive CLI processes whose home is
	// home, each located in tmux when it runs there (the pane is not yet
	// verified to host it) or marked ReadOnly with the reason.
	External(ctx context.Context, home string) ([]conv.ExternalSession, error)
	// OpenExternal returns the side channel of the attached process pid:
	// its current session and transcript, and whether it is busy or waits
	// on the operator. It announces no dialogs: those come from the
	// transcript and the pane.
	OpenExternal(home string, pid int) Side
}
