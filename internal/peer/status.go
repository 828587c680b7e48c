package peer

import (
	"sync"
	"time"

	"lab/internal/conv"
)

// reach is what the hub knows of whether a peer can be reached: set by
// its follower and by every request that went to it. Safe for concurrent
// use.
type reach struct {
	mu     sync.Mutex
	status string // a conv.Machine* status
	since  time.Time
	err    string
}

func newReach() *reach { return &reach{status: conv.MachineConnecting} }

// ok notes a successful exchange; it reports whether the status changed.
func (r *reach) ok() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := r.status != conv.MachineOK
	r.status, r.since, r.err = conv.MachineOK, time.Time{}, ""
	return changed
}

// fail notes a failure: unreachable, or revoked when the peer refused the
// token. It reports whether the status changed; since stays at the first
// failure of a streak.
func (r *reach) fail(status, msg string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = msg
	if r.status == status {
		return false
	}
	if r.since.IsZero() || r.status == conv.MachineOK || r.status == conv.MachineConnecting {
		r.since = now
	}
	r.status = status
	return true
}

// get returns the status, when it began (zero unless failing) and the
// last error.
func (r *reach) get() (status string, since time.Time, err string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.since, r.err
}

// down reports whether the peer is known not to answer (or to refuse), so
// a list need not wait for it.
func (r *reach) down() bool {
	s, _, _ := r.get()
	return s == conv.MachineUnreachable || s == conv.MachineRevoked
}
