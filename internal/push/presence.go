package push

import (
	"sync"
	"time"
)

// PresenceTTL is how long a presence report holds. A visible page reports
// every PresenceEvery, so one lost report does not let a push through to
// the run the operator is reading; a page closed without saying so stops
// holding pushes back within the TTL.
const (
	PresenceTTL   = 45 * time.Second
	PresenceEvery = 15 * time.Second
)

// Presence remembers which run each device's page shows right now. It is
// memory only: after a restart pages report again within PresenceEvery.
// Safe for concurrent use.
type Presence struct {
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	seen map[string]presence
}

type presence struct {
	runID string
	until time.Time
}

// NewPresence makes an empty registry; ttl <= 0 means PresenceTTL, a nil
// now means time.Now.
func NewPresence(ttl time.Duration, now func() time.Time) *Presence {
	if ttl <= 0 {
		ttl = PresenceTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Presence{ttl: ttl, now: now, seen: map[string]presence{}}
}

// Report records that device's page is visible and shows runID ("" for a
// screen that is no run's chat). A hidden page reports visible false,
// which forgets the device at once.
func (p *Presence) Report(device, runID string, visible bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for d, e := range p.seen {
		if !now.Before(e.until) {
			delete(p.seen, d)
		}
	}
	if !visible {
		delete(p.seen, device)
		return
	}
	p.seen[device] = presence{runID: runID, until: now.Add(p.ttl)}
}

// Looking reports whether device's page showed runID within the TTL.
func (p *Presence) Looking(device, runID string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.seen[device]
	return ok && runID != "" && e.runID == runID && p.now().Before(e.until)
}
