package httpapi

import (
	"context"
	"time"
)

// hashGate bounds how many password hashes run at once: each argon2id
// hash takes DefaultArgon2Params' memory (64 MiB), so unbounded parallel
// attempts would take the machine's memory with them. Unknown clients
// share a few slots; known devices have one of their own, so a flood of
// strangers never makes the operator's device queue behind it.
type hashGate struct {
	unknown chan struct{}
	known   chan struct{}
	wait    time.Duration
}

func newHashGate(unknown int, wait time.Duration) *hashGate {
	return &hashGate{unknown: make(chan struct{}, unknown), known: make(chan struct{}, 1), wait: wait}
}

// enter waits up to g.wait for a slot and returns the function that frees
// it; ok is false when none came free in time (or the client left).
func (g *hashGate) enter(ctx context.Context, knownDevice bool) (release func(), ok bool) {
	slots := g.unknown
	if knownDevice {
		slots = g.known
	}
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, true
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, true
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}
