package chat

import (
	"context"

	"lab/internal/conv"
)

// Interrupt presses the CLI's interrupt key (the driver's InterruptKey)
// in the run's pane: it stops a streaming turn (the CLI records the
// interruption) and declines a focused picker. It takes the run's lock, so it
// never lands in the middle of an answer's keys.
//
// Errors: EUnavailable when the key could not be sent or ctx ended while
// waiting for the lock.
func (a *Actor) Interrupt(ctx context.Context) error {
	if err := a.acquire(ctx); err != nil {
		return err
	}
	defer a.release()
	key := a.drv.InterruptKey()
	if err := a.pane.SendKeys(ctx, key); err != nil {
		return conv.Wrap(conv.EUnavailable, err, "sending "+key)
	}
	a.log.Info("interrupted")
	return nil
}
