package httpapi

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"

	"lab/internal/conv"
)

// DefaultBrokerBuffer is how many events a subscriber may fall behind
// before it is dropped.
const DefaultBrokerBuffer = 64

// Broker fans events out to live SSE clients in memory. Publish never
// blocks: a subscriber whose buffer is full is dropped, its stream ends,
// and its client reconnects and refetches. Events are invalidations, so a
// lost one costs staleness, never wrongness. Safe for concurrent use.
type Broker struct {
	buffer int

	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool

	published atomic.Uint64
	dropped   atomic.Uint64
}

// subscriber receives ready-made SSE frames. Its channel is closed when it
// is dropped, unsubscribed or the broker closes; only the broker closes
// it, under mu, after removing it from subs, so no send can race a close.
type subscriber struct {
	ch chan []byte
	// ownOnly leaves out what this lab relays for its peers (their runs'
	// events, their reachability): a hub's relay token gets this lab's
	// own events only.
	ownOnly bool
}

// relayedEvent reports whether e is about a peer's run or a peer.
func relayedEvent(e conv.Event) bool {
	return strings.Contains(e.RunID, conv.MachineSep) || e.Type == conv.EventMachineChanged
}

// NewBroker makes a broker whose subscribers may each lag buffer events
// (DefaultBrokerBuffer when buffer <= 0).
func NewBroker(buffer int) *Broker {
	if buffer <= 0 {
		buffer = DefaultBrokerBuffer
	}
	return &Broker{buffer: buffer, subs: map[*subscriber]struct{}{}}
}

// Publish sends e to every subscriber without waiting for any. Events with
// an empty type or one containing a line break (which would corrupt the
// stream) are ignored, as is everything after Close.
func (b *Broker) Publish(e conv.Event) {
	if e.Type == "" || strings.ContainsAny(e.Type, "\r\n") {
		return
	}
	f := frame(e)
	relayed := relayedEvent(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.published.Add(1)
	for s := range b.subs {
		if relayed && s.ownOnly {
			continue
		}
		select {
		case s.ch <- f:
		default:
			delete(b.subs, s)
			close(s.ch)
			b.dropped.Add(1)
		}
	}
}

// frame renders e once for all subscribers: "event: <type>" and the event
// as single-line JSON (encoding/json escapes line breaks in strings).
func frame(e conv.Event) []byte {
	data, _ := json.Marshal(e) // plain fields: cannot fail
	f := make([]byte, 0, len(e.Type)+len(data)+16)
	f = append(f, "event: "...)
	f = append(f, e.Type...)
	f = append(f, "\ndata: "...)
	f = append(f, data...)
	return append(f, "\n\n"...)
}

// Close ends every subscription and refuses new ones; for shutdown.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for s := range b.subs {
		close(s.ch)
	}
	clear(b.subs)
}

// Subscribers is the number of live subscriptions.
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}

// Published counts events accepted by Publish.
func (b *Broker) Published() uint64 { return b.published.Load() }

// Dropped counts subscribers dropped for falling behind.
func (b *Broker) Dropped() uint64 { return b.dropped.Load() }

// subscribe adds a subscriber (one that hears only this lab's own events
// when ownOnly); false once the broker is closed.
func (b *Broker) subscribe(ownOnly bool) (*subscriber, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, false
	}
	s := &subscriber{ch: make(chan []byte, b.buffer), ownOnly: ownOnly}
	b.subs[s] = struct{}{}
	return s, true
}

// unsubscribe removes s if it is still subscribed. Idempotent.
func (b *Broker) unsubscribe(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		close(s.ch)
	}
}
