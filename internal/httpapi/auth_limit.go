package httpapi

import (
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// DeviceCookie names a browser that has logged in before (a known
// device): its id, signed. It is sent only to the login endpoints.
const DeviceCookie = "lab_device"

const deviceCookiePath = "/api/v1/auth"

// attempt is one login or setup request as the limits see it.
type attempt struct {
	addr   netip.Addr
	device *store.KnownDevice // nil: a client lab does not know
}

// admit lets a login or setup attempt go on or answers 429 with
// Retry-After: a known device spends from its own allowance only, anybody
// else from their address's and from the one all unknown clients share.
// A device cookie that is forged, revoked or expired counts as none.
func (s *Server) admit(r *http.Request) (*attempt, error) {
	a := &attempt{addr: s.clientAddr(r)}
	if c, err := r.Cookie(DeviceCookie); err == nil && c.Value != "" {
		d, err := s.store.KnownDevice(r.Context(), c.Value)
		switch {
		case err == nil:
			a.device = &d
		case conv.KindOf(err) != conv.EUnauthorized:
			return nil, err
		}
	}
	var scope limitScope
	var wait time.Duration
	if a.device != nil {
		scope, wait = s.limiter.allowDevice(a.device.ID)
	} else {
		scope, wait = s.limiter.allowUnknown(limitKey(a.addr))
	}
	if scope == scopeNone {
		return a, nil
	}
	s.log.Warn("login attempts rate-limited", a.logAttrs("scope", scope.String(), "retry_after", wait)...)
	return nil, tooMany(scope.String(), wait)
}

// hash runs f, which hashes a password, in one of the hash gate's slots;
// 429 when none comes free within the gate's wait.
func (s *Server) hash(r *http.Request, a *attempt, f func() error) error {
	release, ok := s.hashes.enter(r.Context(), a.device != nil)
	if !ok {
		s.log.Warn("login attempt refused: every password-hash slot is busy", a.logAttrs()...)
		return tooMany("the server is busy checking other login attempts", time.Second)
	}
	defer release()
	return f()
}

func (a *attempt) logAttrs(kv ...any) []any {
	attrs := append([]any{"remote", a.addr.String()}, kv...)
	if a.device != nil {
		attrs = append(attrs, "device", a.device.ID[:12])
	}
	return attrs
}

// tooMany is the 429 of a lockout: what ran out, and the wait both in
// the message and in Retry-After.
func tooMany(what string, wait time.Duration) error {
	return &statusError{
		status:     http.StatusTooManyRequests,
		msg:        fmt.Sprintf("%s: try again in %d s", what, ceilSeconds(wait)),
		retryAfter: wait,
	}
}

func ceilSeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

func (sc limitScope) String() string {
	switch sc {
	case scopeAddress:
		return "too many login attempts from your address"
	case scopeUnknown:
		return "too many login attempts from devices that have not logged in here before"
	case scopeDevice:
		return "too many login attempts from this device"
	}
	return "no limit"
}

// rememberDevice marks the browser as a known device after it logged in,
// with a cookie as long-lived as browsers allow, and refills its
// allowance.
func (s *Server) rememberDevice(w http.ResponseWriter, r *http.Request) error {
	old := ""
	if c, err := r.Cookie(DeviceCookie); err == nil {
		old = c.Value
	}
	value, d, err := s.store.RememberDevice(r.Context(), old)
	if err != nil {
		return err
	}
	s.limiter.forgiveDevice(d.ID)
	http.SetCookie(w, &http.Cookie{
		Name:     DeviceCookie,
		Value:    value,
		Path:     deviceCookiePath,
		MaxAge:   int(store.DeviceTTL.Seconds()),
		HttpOnly: true,
		Secure:   s.secureCookie(r),
		SameSite: http.SameSiteStrictMode,
	})
	return nil
}
