package fakeapi

import (
	"log/slog"
	"time"
)

// Options tune a scripted API. The zero value is usable.
type Options struct {
	// ChunkDelay is the pause between chunks (words) of the slow scenario
	// (default 100ms).
	ChunkDelay time.Duration
	// SlowChunks is how many words the slow scenario streams (default 100).
	SlowChunks int
	// Logger receives a line per request (default: discard).
	Logger *slog.Logger
}

// WithDefaults returns o with its unset fields at their defaults.
func (o Options) WithDefaults() Options {
	if o.ChunkDelay <= 0 {
		o.ChunkDelay = 100 * time.Millisecond
	}
	if o.SlowChunks <= 0 {
		o.SlowChunks = 100
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
