package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tryLogin posts a login with pw, as r says (address, cookies, headers).
func (h *harness) tryLogin(pw string, r rq) resp {
	h.t.Helper()
	r.method, r.path, r.body = "POST", "/api/v1/auth/login", `{"password":"`+pw+`"}`
	return h.do(r)
}

// newDevice logs in as r and returns the device cookie it was given.
func (h *harness) newDevice(r rq) string {
	h.t.Helper()
	got := h.tryLogin(testPassword, r)
	if got.status != http.StatusOK || got.device == nil {
		h.t.Fatalf("login: got %d %s device cookie %v; want 200 and a device cookie", got.status, got.body, got.device)
	}
	return got.device.Value
}

// wantLockout checks got is a lockout that says what ran out and names
// the same wait in its message as in Retry-After; it returns the wait.
func wantLockout(t *testing.T, got resp, what string) int {
	t.Helper()
	if got.status != http.StatusTooManyRequests || got.cookie != nil {
		t.Fatalf("got %d %s session cookie %v; want 429 and no login", got.status, got.body, got.cookie)
	}
	secs, err := strconv.Atoi(got.header.Get("Retry-After"))
	if err != nil || secs < 1 {
		t.Fatalf("Retry-After %q; want a whole number of seconds", got.header.Get("Retry-After"))
	}
	if msg, want := got.errMsg(t), fmt.Sprintf("%s: try again in %d s", what, secs); msg != want {
		t.Fatalf("429 message %q; want %q", msg, want)
	}
	return secs
}

func TestLockoutSaysItsWait(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.LoginLimit = RateLimit{Burst: 2, Every: time.Minute}
		c.GlobalLoginLimit = RateLimit{Burst: 100, Every: time.Second}
	}})
	for i := range 2 {
		if got := h.tryLogin("guess guess", rq{}); got.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: got %d; want 401", i+1, got.status)
		}
	}
	// An unknown client cannot be told from the attacker it shares an
	// address with: the right password waits too.
	if secs := wantLockout(t, h.tryLogin(testPassword, rq{}), scopeAddress.String()); secs != 60 {
		t.Fatalf("Retry-After %d; want 60", secs)
	}
	got := h.do(rq{method: "POST", path: "/api/v1/auth/setup", body: `{"setup_token":"x","password":"y"}`})
	wantLockout(t, got, scopeAddress.String())
	h.clock.Advance(59 * time.Second)
	if secs := wantLockout(t, h.tryLogin(testPassword, rq{}), scopeAddress.String()); secs != 1 {
		t.Fatalf("a second before the wait is over: Retry-After %d; want 1", secs)
	}
	h.clock.Advance(time.Second)
	if got := h.tryLogin(testPassword, rq{}); got.status != http.StatusOK {
		t.Fatalf("after the wait: got %d; want 200", got.status)
	}
}

// TestKnownDeviceIsNeverLockedOut is the attack from issue 21: wrong
// passwords hammered from the operator's own address, from many
// addresses, and from many addresses behind a trusted proxy, with the
// default limits. The operator's known device logs in every time; an
// unknown device of theirs gets a 429 that names its wait.
func TestKnownDeviceIsNeverLockedOut(t *testing.T) {
	xff := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	for _, tc := range []struct {
		name     string
		proxies  string
		operator rq             // the operator's known device, before its cookie
		attacker func(i int) rq // the attacker's i-th attempt
		stranger rq             // a device of the operator's that never logged in
		scope    limitScope     // what the stranger's 429 names
	}{
		{
			name:     "from the operator's own address",
			attacker: func(int) rq { return rq{} },
			scope:    scopeAddress,
		},
		{
			name:     "from 30 rotating addresses",
			attacker: func(i int) rq { return rq{from: fmt.Sprintf("127.0.0.%d", 2+i%30)} },
			stranger: rq{from: "127.0.0.200"},
			scope:    scopeUnknown,
		},
		{
			name:     "from 30 rotating addresses behind a trusted proxy",
			proxies:  "127.0.0.1",
			operator: rq{header: xff("203.0.113.5")},
			attacker: func(i int) rq { return rq{header: xff(fmt.Sprintf("198.51.100.%d", i%30))} },
			stranger: rq{header: xff("203.0.113.6")},
			scope:    scopeUnknown,
		},
		{
			name:     "spoofing X-Forwarded-For without a trusted proxy",
			operator: rq{header: xff("203.0.113.5")},
			attacker: func(i int) rq { return rq{header: xff(fmt.Sprintf("198.51.100.%d", i%30))} },
			stranger: rq{header: xff("203.0.113.6")},
			scope:    scopeAddress, // the header is ignored: all share 127.0.0.1
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxies, err := ParseTrustedProxies(tc.proxies)
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, harnessOpt{config: func(c *Config) {
				c.LoginLimit, c.GlobalLoginLimit = RateLimit{}, RateLimit{} // the defaults
				c.TrustedProxies = proxies
			}})
			op := tc.operator
			op.device = h.newDevice(op)

			wrong := func(r rq) {
				if got := h.tryLogin("guess guess", r); got.status != http.StatusUnauthorized && got.status != http.StatusTooManyRequests {
					t.Errorf("attacker: got %d %s; want 401 or 429", got.status, got.body)
				}
			}
			// One attacker hammers all along, as fast as it can...
			var attempts atomic.Int64
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					wrong(tc.attacker(i))
					attempts.Add(1)
				}
			}()
			defer func() { close(stop); wg.Wait() }()

			in := 0
			for round := range 10 {
				// ...and after each half minute another spends whatever
				// refilled, so the lockout is certain when we look.
				h.clock.Advance(30 * time.Second)
				for i := range 40 {
					wrong(tc.attacker(round*40 + i))
				}
				stranger := tc.stranger
				wantLockout(t, h.tryLogin(testPassword, stranger), tc.scope.String())
				if got := h.tryLogin(testPassword, op); got.status == http.StatusOK {
					in++
				} else {
					t.Errorf("round %d: the known device got %d %s; want 200", round, got.status, got.body)
				}
			}
			if in != 10 || attempts.Load() == 0 {
				t.Fatalf("the known device logged in %d of 10 times under %d background attempts; want 10", in, attempts.Load())
			}
		})
	}
}

// TestDeviceCookieIsChecked: only a cookie this lab signed, for a device
// it still knows, takes a client out of the shared limits.
func TestDeviceCookieIsChecked(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.LoginLimit = RateLimit{Burst: 1, Every: time.Hour}
	}})
	first := h.tryLogin(testPassword, rq{}) // the address's one attempt
	if first.status != http.StatusOK || first.device == nil {
		t.Fatalf("login: got %d %s; want 200 and a device cookie", first.status, first.body)
	}
	device := first.device.Value
	wantLockout(t, h.tryLogin(testPassword, rq{}), scopeAddress.String())
	for name, bad := range map[string]string{
		"tampered":             device[:len(device)-2] + "xx",
		"another lab's device": newHarness(t, harnessOpt{}).newDevice(rq{}),
		"a session secret":     first.cookie.Value,
	} {
		t.Run(name, func(t *testing.T) {
			wantLockout(t, h.tryLogin(testPassword, rq{device: bad}), scopeAddress.String())
		})
	}
	if got := h.tryLogin(testPassword, rq{device: device}); got.status != http.StatusOK {
		t.Fatalf("the known device while its address is locked: got %d %s; want 200", got.status, got.body)
	}

	// Logging out keeps the device known.
	var st AuthStatus
	json.Unmarshal(first.body, &st)
	if got := h.do(rq{method: "POST", path: "/api/v1/auth/logout", cookie: first.cookie.Value, csrf: st.CSRFToken, device: device}); got.status != http.StatusNoContent {
		t.Fatalf("logout: got %d", got.status)
	}
	if got := h.tryLogin(testPassword, rq{device: device}); got.status != http.StatusOK {
		t.Fatalf("the known device after logout: got %d %s; want 200", got.status, got.body)
	}

	// A password change (lab passwd) forgets every device.
	if err := h.db.SetPassword(context.Background(), testPassword); err != nil {
		t.Fatal(err)
	}
	wantLockout(t, h.tryLogin(testPassword, rq{device: device}), scopeAddress.String())
	h.clock.Advance(time.Hour)
	got := h.tryLogin(testPassword, rq{device: device})
	if got.status != http.StatusOK || got.device == nil || got.device.Value == device {
		t.Fatalf("login after the password change: got %d cookie %v; want 200 and a new device cookie", got.status, got.device)
	}
}

// TestKnownDeviceHasItsOwnAllowance: a stolen or mistyping device is
// slowed on its own, without touching anybody else's allowance.
func TestKnownDeviceHasItsOwnAllowance(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) {
		c.DeviceLoginLimit = RateLimit{Burst: 3, Every: time.Minute}
	}})
	a, b := h.newDevice(rq{}), h.newDevice(rq{})
	for i := range 3 {
		if got := h.tryLogin("guess guess", rq{device: a}); got.status != http.StatusUnauthorized {
			t.Fatalf("device a, attempt %d: got %d; want 401", i+1, got.status)
		}
	}
	if secs := wantLockout(t, h.tryLogin(testPassword, rq{device: a}), scopeDevice.String()); secs != 60 {
		t.Fatalf("Retry-After %d; want 60", secs)
	}
	if got := h.tryLogin(testPassword, rq{device: b}); got.status != http.StatusOK {
		t.Fatalf("device b: got %d; want 200", got.status)
	}
	if got := h.tryLogin(testPassword, rq{}); got.status != http.StatusOK {
		t.Fatalf("an unknown device: got %d; want 200", got.status)
	}
	// A login refills the device's allowance: its owner knows the password.
	h.clock.Advance(time.Minute)
	if got := h.tryLogin(testPassword, rq{device: a}); got.status != http.StatusOK {
		t.Fatalf("device a after a minute: got %d; want 200", got.status)
	}
	for i := range 3 {
		if got := h.tryLogin("guess guess", rq{device: a}); got.status != http.StatusUnauthorized {
			t.Fatalf("device a after its login, attempt %d: got %d; want 401", i+1, got.status)
		}
	}
}

// TestPasswordHashSlots: with every hash slot of unknown clients taken, an
// unknown client gets a quick 429 while a known device still logs in on
// its own slot.
func TestPasswordHashSlots(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.HashWait = 20 * time.Millisecond }})
	device := h.newDevice(rq{})
	h.srv.hashes.unknown <- struct{}{} // a hash that does not finish
	wantLockout(t, h.tryLogin(testPassword, rq{}), "the server is busy checking other login attempts")
	if got := h.tryLogin(testPassword, rq{device: device}); got.status != http.StatusOK {
		t.Fatalf("known device while unknown clients' slots are full: got %d %s; want 200", got.status, got.body)
	}
	h.srv.hashes.known <- struct{}{}
	wantLockout(t, h.tryLogin(testPassword, rq{device: device}), "the server is busy checking other login attempts")
	<-h.srv.hashes.unknown
	<-h.srv.hashes.known
	for _, r := range []rq{{}, {device: device}} {
		if got := h.tryLogin(testPassword, r); got.status != http.StatusOK {
			t.Fatalf("with the slots free again: got %d; want 200", got.status)
		}
	}
	if !strings.Contains(h.logs.String(), "password-hash slot is busy") {
		t.Errorf("log lacks the refused attempts; got:\n%s", h.logs.String())
	}
}

func TestHashGateBoundsConcurrency(t *testing.T) {
	for _, slots := range []int{1, 3} {
		g := newHashGate(slots, time.Minute)
		var now, most atomic.Int32
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				release, ok := g.enter(context.Background(), i%2 == 0)
				if !ok {
					t.Error("no slot within a minute")
					return
				}
				defer release()
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond) // hold the slot like a hash would
				now.Add(-1)
			}()
		}
		wg.Wait()
		if got := most.Load(); got != int32(slots+1) {
			t.Errorf("%d slots for unknown clients plus one for known devices: at most %d ran at once; want %d", slots, got, slots+1)
		}
	}
	// A client that leaves stops waiting at once.
	g := newHashGate(1, time.Hour)
	release, _ := g.enter(context.Background(), false)
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := g.enter(ctx, false); ok {
		t.Fatal("entered a full gate")
	}
}

func TestLimiterScopes(t *testing.T) {
	clk := &clock{t: time.Unix(1e9, 0)}
	l := newLimiter(RateLimit{Burst: 2, Every: 10 * time.Second}, RateLimit{Burst: 3, Every: time.Second}, RateLimit{Burst: 1, Every: time.Minute}, clk.Now)
	type step struct {
		who   string // "addr:x" or "device:x"
		scope limitScope
		wait  time.Duration
	}
	for i, s := range []step{
		{"addr:a", scopeNone, 0}, {"addr:a", scopeNone, 0},
		{"addr:a", scopeAddress, 10 * time.Second}, // a's bucket is empty
		{"addr:b", scopeNone, 0},
		{"addr:c", scopeUnknown, time.Second}, // the shared bucket is empty
		{"device:d", scopeNone, 0},            // devices are not in it
		{"device:d", scopeDevice, time.Minute},
		{"device:e", scopeNone, 0},
	} {
		kind, key, _ := strings.Cut(s.who, ":")
		var scope limitScope
		var wait time.Duration
		if kind == "addr" {
			scope, wait = l.allowUnknown(key)
		} else {
			scope, wait = l.allowDevice(key)
		}
		if scope != s.scope || wait != s.wait {
			t.Fatalf("step %d (%s): got %v, %v; want %v, %v", i, s.who, scope, wait, s.scope, s.wait)
		}
	}
	clk.Advance(time.Second)
	if scope, _ := l.allowUnknown("c"); scope != scopeNone {
		t.Fatal("c after the shared bucket refilled one: refused; want allowed")
	}
	l.forgiveDevice("d")
	if scope, _ := l.allowDevice("d"); scope != scopeNone {
		t.Fatal("d after it was forgiven: refused; want allowed")
	}
}
