package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// RateLimit is a token bucket: Burst attempts at once, then one more every
// Every.
type RateLimit struct {
	Burst int
	Every time.Duration
}

// maxTrackedIPs bounds the per-IP table. Past it, buckets that have
// refilled are forgotten (they carry no state), and if that is not enough
// the table restarts; the global bucket still caps the total either way.
const maxTrackedIPs = 10000

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

// limiter rate-limits login and setup attempts per remote IP and overall,
// so guessing the password is slow from one address and from many.
type limiter struct {
	mu     sync.Mutex
	perIP  RateLimit
	global RateLimit
	now    func() time.Time
	ips    map[string]*bucket
	all    bucket
}

func newLimiter(perIP, global RateLimit, now func() time.Time) *limiter {
	return &limiter{perIP: perIP, global: global, now: now, ips: map[string]*bucket{}}
}

// allow takes one attempt for ip from both buckets, or none when either is
// empty, in which case it says how long to wait.
func (l *limiter) allow(ip string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.ips[ip]
	if b == nil {
		if len(l.ips) >= maxTrackedIPs {
			l.prune(now)
		}
		b = &bucket{}
		l.ips[ip] = b
	}
	wait := max(b.refill(l.perIP, now), l.all.refill(l.global, now))
	if wait > 0 {
		return false, wait
	}
	b.tokens--
	l.all.tokens--
	return true, 0
}

func (l *limiter) prune(now time.Time) {
	for ip, b := range l.ips {
		if b.refill(l.perIP, now); b.tokens >= float64(l.perIP.Burst) {
			delete(l.ips, ip)
		}
	}
	if len(l.ips) >= maxTrackedIPs {
		clear(l.ips)
	}
}

// remoteIP is the address the connection came from. Behind a reverse
// proxy every request shares the proxy's address, so the per-IP limit
// then acts as a second global one: safe, if stricter.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limitLogin spends one login attempt of the request's address; 429 with
// Retry-After when none is left.
func (s *Server) limitLogin(r *http.Request) error {
	ok, wait := s.limiter.allow(remoteIP(r))
	if ok {
		return nil
	}
	s.log.Warn("login attempts rate-limited", "remote", remoteIP(r), "retry_after", wait)
	secs := int((wait + time.Second - 1) / time.Second)
	return &statusError{status: http.StatusTooManyRequests, msg: fmt.Sprintf("too many login attempts: try again in %d s", secs), retryAfter: wait}
}
