package agent

import "lab/internal/conv"

// TroubleReader is a Driver that can tell, from the pane, that the turn is
// stuck on something the transcript does not record yet: a failed API
// request the CLI is retrying with a countdown. The live view shows it as
// a warning beside the stream instead of an endless "working". Optional:
// a driver without it simply shows no warning.
type TroubleReader interface {
	// Trouble returns a warning (level warning, one line of text) when the
	// capture shows the CLI retrying or stalled, else nil.
	Trouble(capture string) *conv.Lifecycle
}
