package chat

import (
	"context"

	"lab/internal/conv"
)

// Interrupt presses Escape in the run's pane: it stops a streaming turn
// (the CLI keeps the partial text and records "[Request interrupted by
// user]") and declines a focused picker. It takes the run's lock, so it
// never lands in the middle of an answer's keys.
//
// Errors: EUnavailable when the key could not be sent or ctx ended while
// waiting for the lock.
func (a *Actor) Interrupt(ctx context.Context) error {
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	if err := a.pane.SendKey(ctx, "Escape"); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "sending Escape")
	}
	a.log.Info("interrupted")
	return nil
}
