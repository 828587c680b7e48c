package httpapi

import (
	"sync"
	"time"
)

// RateLimit is a token bucket: Burst attempts at once, then one more every
// Every.
type RateLimit struct {
	Burst int
	Every time.Duration
}

// maxTracked bounds each table of buckets (addresses, devices). Past it,
// buckets that have refilled are forgotten (they carry no state), and if
// that is not enough the table restarts; the global bucket still caps
// unknown clients either way, and devices are bounded by the store.
const maxTracked = 10000

type bucket struct {
	tokens float64
	last   time.Time
}

// refill tops b up for the time passed and reports how long until it
// holds one token.
func (b *bucket) refill(l RateLimit, now time.Time) time.Duration {
	if b.last.IsZero() {
		b.tokens, b.last = float64(l.Burst), now
	}
	if el := now.Sub(b.last); el > 0 {
		b.tokens += float64(el) / float64(l.Every)
		if b.tokens > float64(l.Burst) {
			b.tokens = float64(l.Burst)
		}
		b.last = now
	}
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(l.Every))
}

// buckets is one bucket per key, all with the same limit.
type buckets struct {
	limit RateLimit
	m     map[string]*bucket
}

func (t *buckets) get(key string, now time.Time) *bucket {
	b := t.m[key]
	if b == nil {
		if len(t.m) >= maxTracked {
			for k, old := range t.m {
				if old.refill(t.limit, now); old.tokens >= float64(t.limit.Burst) {
					delete(t.m, k)
				}
			}
			if len(t.m) >= maxTracked {
				clear(t.m)
			}
		}
		b = &bucket{}
		t.m[key] = b
	}
	return b
}

// limitScope names the allowance that ran out, for the 429's message.
type limitScope int

const (
	scopeNone    limitScope = iota
	scopeAddress            // the client's address (an IPv6 /64)
	scopeUnknown            // every client without a known-device cookie
	scopeDevice             // one known device
)

// limiter rate-limits login and setup attempts. A known device (one that
// showed a valid device cookie) has its own bucket and nothing else, so
// what others do never keeps it out. Everybody else spends from their
// address's bucket and from one bucket shared by all unknown clients, so
// guessing is slow from one address and from many.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time
	addrs   buckets
	devices buckets
	global  RateLimit
	unknown bucket
}

func newLimiter(perAddr, global, device RateLimit, now func() time.Time) *limiter {
	return &limiter{
		now:     now,
		addrs:   buckets{limit: perAddr, m: map[string]*bucket{}},
		devices: buckets{limit: device, m: map[string]*bucket{}},
		global:  global,
	}
}

// allowUnknown takes one attempt for an unknown client at addr from its
// address's bucket and the shared one, or none when either is empty; then
// it says which and how long to wait.
func (l *limiter) allowUnknown(addr string) (limitScope, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.addrs.get(addr, now)
	own, all := b.refill(l.addrs.limit, now), l.unknown.refill(l.global, now)
	switch {
	case own == 0 && all == 0:
		b.tokens--
		l.unknown.tokens--
		return scopeNone, 0
	case own >= all:
		return scopeAddress, own
	default:
		return scopeUnknown, all
	}
}

// allowDevice takes one attempt from a known device's own bucket.
func (l *limiter) allowDevice(id string) (limitScope, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.devices.get(id, now)
	if wait := b.refill(l.devices.limit, now); wait > 0 {
		return scopeDevice, wait
	}
	b.tokens--
	return scopeNone, 0
}

// forgiveDevice refills a device's bucket after it logged in: whoever
// holds it knows the password, so its earlier typos stop counting.
func (l *limiter) forgiveDevice(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.devices.m, id)
}
