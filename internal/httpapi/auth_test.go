package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// routeCase is one authed route with a request that succeeds given valid
// credentials against the fixture below.
type routeCase struct {
	pattern            string
	method, path, body string
	ok                 int // status with valid credentials; 0: a stream, checked in sse_test.go
}

// fixture creates runs r1 (idle), r2 (asking a question, tool toolu_1),
// r3 (to be stopped) and history session s1, and returns every authed
// route. Cases run in order; logout comes last.
func fixture(t *testing.T, h *harness) []routeCase {
	t.Helper()
	cwd := t.TempDir()
	ctx := context.Background()
	for range 3 {
		if _, err := h.runs.Start(ctx, conv.StartRequest{Cwd: cwd}); err != nil {
			t.Fatal(err)
		}
	}
	h.runs.ask("r2", conv.Dialog{ToolID: "toolu_1", Kind: conv.DialogQuestion, Answerable: true,
		Questions: []conv.Question{{Question: "Which?", Options: []conv.Option{{Label: "A"}, {Label: "B"}}}}})
	if err := os.WriteFile(filepath.Join(h.sessions.dir, "s1.jsonl"), []byte("hello\nworld\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keep, gone := h.pushDevice("phone"), h.pushDevice("old phone")
	sub := h.pushSvc.Subscribe(t)
	// A peer: this very lab, through a relay token it issued.
	relay, _, err := h.db.CreateScopedAPIToken(ctx, "hub", store.ScopeRelay)
	if err != nil {
		t.Fatal(err)
	}
	addPeer, _ := json.Marshal(PeerRequest{Name: "self", URL: h.ts.URL, Token: relay})
	return []routeCase{
		{"GET /api/v1/runs", "GET", "/api/v1/runs", "", 200},
		{"POST /api/v1/runs", "POST", "/api/v1/runs", `{"cwd":"` + cwd + `","prompt":"go"}`, 201},
		{"POST /api/v1/runs/{id}/stop", "POST", "/api/v1/runs/r3/stop", "", 204},
		{"POST /api/v1/runs/archive", "POST", "/api/v1/runs/archive", `{"ids":["r3"]}`, 200},
		{"POST /api/v1/runs/unarchive", "POST", "/api/v1/runs/unarchive", `{"ids":["r3"]}`, 200},
		{"POST /api/v1/runs/stop-idle", "POST", "/api/v1/runs/stop-idle", `{"ids":["nope"]}`, 200},
		{"POST /api/v1/runs/attach", "POST", "/api/v1/runs/attach", `{"pid":4242}`, 0},
		{"POST /api/v1/runs/{id}/resume", "POST", "/api/v1/runs/r3/resume", "", 0},
		{"GET /api/v1/external-sessions", "GET", "/api/v1/external-sessions", "", 200},
		{"POST /api/v1/sessions/{id}/resume", "POST", "/api/v1/sessions/s1/resume", "", 201},
		{"GET /api/v1/runs/{id}", "GET", "/api/v1/runs/r1", "", 200},
		{"GET /api/v1/runs/{id}/messages", "GET", "/api/v1/runs/r1/messages?limit=10", "", 200},
		{"POST /api/v1/uploads", "POST", "/api/v1/uploads?name=a.txt", "staged", 201},
		{"POST /api/v1/runs/{id}/uploads", "POST", "/api/v1/runs/r1/uploads?name=a.txt", "for r1", 201},
		{"GET /api/v1/runs/{id}/attachments/{seq}/{n}", "GET", "/api/v1/runs/r1/attachments/1/0", "", 200},
		{"GET /api/v1/sessions/{id}/attachments/{seq}/{n}", "GET", "/api/v1/sessions/s1/attachments/1/0", "", 404},
		{"POST /api/v1/runs/{id}/reply", "POST", "/api/v1/runs/r1/reply", `{"text":"carry on"}`, 204},
		{"POST /api/v1/runs/{id}/interrupt", "POST", "/api/v1/runs/r1/interrupt", "", 204},
		{"POST /api/v1/runs/{id}/answer", "POST", "/api/v1/runs/r2/answer", `{"tool_id":"toolu_1","answers":[{"chosen":[1]}]}`, 204},
		{"POST /api/v1/runs/{id}/seen", "POST", "/api/v1/runs/r1/seen", "", 204},
		// The harness has no terminal layer (terminal_test.go gives one).
		{"GET /api/v1/runs/{id}/terminal", "GET", "/api/v1/runs/r1/terminal", "", 503},
		{"POST /api/v1/runs/{id}/terminal/input", "POST", "/api/v1/runs/r1/terminal/input", `{"keys":["Enter"]}`, 503},
		{"GET /api/v1/runs/{id}/commands", "GET", "/api/v1/runs/r1/commands", "", 200},
		{"POST /api/v1/runs/{id}/command", "POST", "/api/v1/runs/r1/command", `{"name":"compact"}`, 204},
		{"POST /api/v1/runs/{id}/mode", "POST", "/api/v1/runs/r1/mode", `{"mode":"plan"}`, 204},
		{"POST /api/v1/runs/{id}/model", "POST", "/api/v1/runs/r1/model", `{"model":"sonnet"}`, 204},
		{"GET /api/v1/runs/{id}/changes", "GET", "/api/v1/runs/r1/changes?since=turn", "", 200},
		{"GET /api/v1/runs/{id}/changes/diff", "GET", "/api/v1/runs/r1/changes/diff?path=a.txt", "", 200},
		{"GET /api/v1/runs/{id}/file", "GET", "/api/v1/runs/r1/file?path=a.txt", "", 200},
		{"POST /api/v1/runs/{id}/worktree/commit", "POST", "/api/v1/runs/r3/worktree/commit", `{"message":"m"}`, 200},
		{"POST /api/v1/runs/{id}/worktree/remove", "POST", "/api/v1/runs/r3/worktree/remove", `{"force":true}`, 204},
		{"GET /api/v1/sessions/{id}/changes", "GET", "/api/v1/sessions/s1/changes", "", 200},
		{"GET /api/v1/sessions/{id}/file", "GET", "/api/v1/sessions/s1/file?path=a.txt", "", 200},
		{"GET /api/v1/providers", "GET", "/api/v1/providers", "", 200},
		{"GET /api/v1/sessions", "GET", "/api/v1/sessions?q=hello", "", 200},
		{"GET /api/v1/sessions/{id}", "GET", "/api/v1/sessions/s1", "", 200},
		{"GET /api/v1/sessions/{id}/messages", "GET", "/api/v1/sessions/s1/messages", "", 200},
		{"GET /api/v1/demo/scenarios", "GET", "/api/v1/demo/scenarios", "", 200},
		{"GET /api/v1/folders", "GET", "/api/v1/folders?q=~/", "", 200},
		{"GET /api/v1/events", "GET", "/api/v1/events", "", 0},
		{"GET /api/v1/push/key", "GET", "/api/v1/push/key", "", 200},
		{"GET /api/v1/push/devices", "GET", "/api/v1/push/devices", "", 200},
		{"POST /api/v1/push/devices", "POST", "/api/v1/push/devices", subscribeBody("tablet", sub), 201},
		{"POST /api/v1/push/devices/{id}", "POST", "/api/v1/push/devices/" + keep, `{"options":{"blocked":true,"turn_end":true}}`, 200},
		{"POST /api/v1/push/devices/{id}/test", "POST", "/api/v1/push/devices/" + keep + "/test", "", 204},
		{"POST /api/v1/push/presence", "POST", "/api/v1/push/presence", `{"device_id":"` + keep + `","run_id":"r1","visible":true}`, 204},
		{"DELETE /api/v1/push/devices/{id}", "DELETE", "/api/v1/push/devices/" + gone, "", 204},
		{"GET /api/v1/peers", "GET", "/api/v1/peers", "", 200},
		{"POST /api/v1/peers", "POST", "/api/v1/peers", string(addPeer), 201},
		{"DELETE /api/v1/peers/{name}", "DELETE", "/api/v1/peers/self", "", 204},
		{"POST /api/v1/auth/logout", "POST", "/api/v1/auth/logout", "", 204},
	}
}

func TestRouteTableCoversEveryAuthedRoute(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	var want, got []string
	for _, rt := range h.srv.authedRoutes() {
		want = append(want, rt.pattern)
	}
	for _, c := range fixture(t, h) {
		got = append(got, c.pattern)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("test table covers %v; server has %v", got, want)
	}
}

func TestEveryAuthedRouteNeedsCredentials(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	cases := fixture(t, h)
	for _, c := range cases {
		for _, cred := range []struct {
			name string
			r    rq
		}{
			{"none", rq{}},
			{"unknown bearer", rq{bearer: "lab_nope"}},
			{"basic auth", rq{header: map[string]string{"Authorization": "Basic b3A6cHc="}}},
			{"unknown cookie", rq{cookie: "forged", csrf: "x"}},
		} {
			t.Run(c.pattern+"/"+cred.name, func(t *testing.T) {
				r := cred.r
				r.method, r.path, r.body = c.method, c.path, c.body
				got := h.do(r)
				if got.status != http.StatusUnauthorized {
					t.Fatalf("got %d %s; want 401", got.status, got.body)
				}
				got.errMsg(t)
				if cred.name == "unknown cookie" && (got.cookie == nil || got.cookie.MaxAge >= 0) {
					t.Fatalf("got Set-Cookie %v; want the dead cookie cleared", got.cookie)
				}
			})
		}
	}
	// Nothing leaked through: every action still succeeds afterwards.
	cookie, csrf := h.login()
	for _, c := range cases {
		if c.ok == 0 {
			continue
		}
		got := h.do(rq{method: c.method, path: c.path, body: c.body, cookie: cookie, csrf: csrf})
		if got.status != c.ok {
			t.Errorf("%s after the 401s: got %d %s; want %d", c.pattern, got.status, got.body, c.ok)
		}
	}
}

func TestOpenRoutesNeedNoCredentials(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/api/v1/auth/status"} {
		if got := h.do(rq{method: "GET", path: path}); got.status != http.StatusOK {
			t.Errorf("GET %s: got %d %s; want 200", path, got.status, got.body)
		}
	}
}

func TestCookieWritesNeedCSRFProof(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	cases := fixture(t, h)
	cookie, csrf := h.login()
	same := h.ts.URL // the Origin a browser on this page sends
	for _, c := range cases {
		if c.method == "GET" {
			continue
		}
		for _, bad := range []struct {
			name string
			r    rq
		}{
			{"no token", rq{cookie: cookie}},
			{"no token, same origin", rq{cookie: cookie, origin: same}},
			{"wrong token", rq{cookie: cookie, csrf: csrf + "x"}},
			{"token of another session", rq{cookie: cookie, csrf: "AAAA" + csrf[4:]}},
			{"foreign origin", rq{cookie: cookie, csrf: csrf, origin: "https://evil.example"}},
			{"null origin", rq{cookie: cookie, csrf: csrf, origin: "null"}},
			{"cross-site fetch", rq{cookie: cookie, csrf: csrf, header: map[string]string{"Sec-Fetch-Site": "cross-site"}}},
		} {
			t.Run(c.pattern+"/"+bad.name, func(t *testing.T) {
				r := bad.r
				r.method, r.path, r.body = c.method, c.path, c.body
				got := h.do(r)
				if got.status != http.StatusForbidden {
					t.Fatalf("got %d %s; want 403", got.status, got.body)
				}
				got.errMsg(t)
			})
		}
	}
	// With both proofs every write passes, and none of the refused
	// attempts above had an effect (stop and answer would now be 409).
	for _, c := range cases {
		if c.ok == 0 {
			continue
		}
		r := rq{method: c.method, path: c.path, body: c.body, cookie: cookie}
		if c.method != "GET" {
			r.csrf, r.origin = csrf, same
			r.header = map[string]string{"Sec-Fetch-Site": "same-origin"}
		}
		if got := h.do(r); got.status != c.ok {
			t.Errorf("%s with CSRF proof: got %d %s; want %d", c.pattern, got.status, got.body, c.ok)
		}
	}
}

func TestDeclaredBaseURLOriginIsTrusted(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.BaseURL = "https://lab.example.org/" }})
	fixture(t, h)
	cookie, csrf := h.login()
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"https://lab.example.org", http.StatusNoContent},
		{"http://lab.example.org", http.StatusForbidden},
		{"https://evil.example.org", http.StatusForbidden},
	} {
		got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/interrupt", cookie: cookie, csrf: csrf, origin: tc.origin})
		if got.status != tc.want {
			t.Errorf("Origin %s: got %d %s; want %d", tc.origin, got.status, got.body, tc.want)
		}
	}
}

func TestBearerTokens(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	cases := fixture(t, h)
	secret := h.token("script")
	for _, c := range cases {
		if c.ok == 0 {
			continue
		}
		// No CSRF header: a bearer token is not sent by browsers on their own.
		if got := h.do(rq{method: c.method, path: c.path, body: c.body, bearer: secret}); got.status != c.ok {
			t.Errorf("%s with bearer: got %d %s; want %d", c.pattern, got.status, got.body, c.ok)
		}
	}
	lower := h.do(rq{method: "GET", path: "/api/v1/runs", header: map[string]string{"Authorization": "bearer " + secret}})
	if lower.status != http.StatusOK {
		t.Errorf("lower-case scheme: got %d; want 200", lower.status)
	}
	st := h.do(rq{method: "GET", path: "/api/v1/auth/status", bearer: secret})
	var status AuthStatus
	json.Unmarshal(st.body, &status)
	if !status.LoggedIn || status.Via != "token" || status.CSRFToken != "" {
		t.Errorf("status with bearer = %+v; want logged in via token without a CSRF token", status)
	}
	if _, err := h.db.RevokeAPIToken(context.Background(), "script"); err != nil {
		t.Fatal(err)
	}
	got := h.do(rq{method: "GET", path: "/api/v1/runs", bearer: secret})
	if got.status != http.StatusUnauthorized {
		t.Fatalf("revoked token: got %d; want 401", got.status)
	}
	if msg := got.errMsg(t); !strings.Contains(msg, "revoked") {
		t.Errorf("revoked token message %q; want it to say so", msg)
	}
	// A bad Authorization header is not rescued by a good cookie.
	cookie, _ := h.login()
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", bearer: secret, cookie: cookie}); got.status != http.StatusUnauthorized {
		t.Errorf("revoked bearer plus cookie: got %d; want 401", got.status)
	}
}

func TestLoginCookieAttributes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		opt        harnessOpt
		wantSecure bool
	}{
		{"plain http on loopback", harnessOpt{}, false},
		{"TLS", harnessOpt{tls: true}, true},
		{"https base URL behind a proxy", harnessOpt{config: func(c *Config) { c.BaseURL = "https://lab.example.org" }}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.opt)
			got := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"` + testPassword + `"}`})
			c := got.cookie
			if got.status != http.StatusOK || c == nil {
				t.Fatalf("login: got %d %s; want 200 and a cookie", got.status, got.body)
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure != tc.wantSecure {
				t.Errorf("got cookie HttpOnly=%v SameSite=%v Path=%q Secure=%v; want true Strict / %v",
					c.HttpOnly, c.SameSite, c.Path, c.Secure, tc.wantSecure)
			}
			if c.MaxAge != int(store.SessionTTL.Seconds()) || len(c.Value) < 43 {
				t.Errorf("got MaxAge %d value %q; want %d and a 32-byte secret", c.MaxAge, c.Value, int(store.SessionTTL.Seconds()))
			}
			var login, status AuthStatus
			json.Unmarshal(got.body, &login)
			st := h.do(rq{method: "GET", path: "/api/v1/auth/status", cookie: c.Value})
			json.Unmarshal(st.body, &status)
			if !status.LoggedIn || status.Via != "session" || status.CSRFToken == "" || status.CSRFToken != login.CSRFToken {
				t.Errorf("status = %+v after login %+v; want logged in with the same CSRF token", status, login)
			}
			// The known-device cookie goes to the login endpoints only, and
			// lives as long as browsers let a cookie live.
			d := got.device
			if d == nil || !d.HttpOnly || d.SameSite != http.SameSiteStrictMode || d.Path != "/api/v1/auth" || d.Secure != tc.wantSecure ||
				d.MaxAge != int(store.DeviceTTL.Seconds()) {
				t.Fatalf("got device cookie %+v; want HttpOnly, Strict, Path /api/v1/auth, Secure %v, MaxAge %d",
					d, tc.wantSecure, int(store.DeviceTTL.Seconds()))
			}
			if again := h.tryLogin(testPassword, rq{device: d.Value}); again.device == nil || again.device.Value != d.Value {
				t.Errorf("second login from the device: got cookie %v; want the same value re-sent", again.device)
			}
		})
	}
}

func TestLoginFailures(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	for _, tc := range []struct {
		name, body, origin string
		want               int
	}{
		{"wrong password", `{"password":"guess guess"}`, "", http.StatusUnauthorized},
		{"empty password", `{"password":""}`, "", http.StatusBadRequest},
		{"unknown field", `{"password":"x","remember":true}`, "", http.StatusBadRequest},
		{"foreign origin", `{"password":"` + testPassword + `"}`, "https://evil.example", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: tc.body, origin: tc.origin})
			if got.status != tc.want || got.cookie != nil {
				t.Fatalf("got %d %s cookie %v; want %d and no cookie", got.status, got.body, got.cookie, tc.want)
			}
			got.errMsg(t)
		})
	}
	if !strings.Contains(h.logs.String(), "failed login") {
		t.Errorf("log lacks the failed login; got:\n%s", h.logs.String())
	}
}

func TestLogoutInvalidatesSession(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	cookie, csrf := h.login()
	other, _ := h.login()
	got := h.do(rq{method: "POST", path: "/api/v1/auth/logout", cookie: cookie, csrf: csrf})
	if got.status != http.StatusNoContent || got.cookie == nil || got.cookie.MaxAge >= 0 {
		t.Fatalf("logout: got %d cookie %v; want 204 and the cookie cleared", got.status, got.cookie)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", cookie: cookie}); got.status != http.StatusUnauthorized {
		t.Errorf("old cookie after logout: got %d; want 401", got.status)
	}
	var st AuthStatus
	json.Unmarshal(h.do(rq{method: "GET", path: "/api/v1/auth/status", cookie: cookie}).body, &st)
	if st.LoggedIn {
		t.Errorf("status after logout = %+v; want logged out", st)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", cookie: other}); got.status != http.StatusOK {
		t.Errorf("another session after logout: got %d; want 200", got.status)
	}
}

func TestSessionSlidesAndExpires(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	cookie, _ := h.login()
	h.clock.Advance(2 * time.Hour)
	got := h.do(rq{method: "GET", path: "/api/v1/runs", cookie: cookie})
	if got.status != http.StatusOK || got.cookie == nil || got.cookie.Value != cookie || got.cookie.MaxAge != int(store.SessionTTL.Seconds()) {
		t.Fatalf("use after 2h: got %d cookie %v; want 200 and the cookie re-sent with a fresh MaxAge", got.status, got.cookie)
	}
	h.clock.Advance(store.SessionTTL + time.Second)
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", cookie: cookie}); got.status != http.StatusUnauthorized {
		t.Fatalf("use after the TTL idle: got %d; want 401", got.status)
	}
}

func TestSetupTokenIsSingleUse(t *testing.T) {
	h := newHarness(t, harnessOpt{noPassword: true})
	var st AuthStatus
	json.Unmarshal(h.do(rq{method: "GET", path: "/api/v1/auth/status"}).body, &st)
	if !st.SetupNeeded || st.LoggedIn {
		t.Fatalf("fresh status = %+v; want setup needed, logged out", st)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"anything at all"}`}); got.status != http.StatusConflict {
		t.Fatalf("login before setup: got %d %s; want 409", got.status, got.body)
	}
	token, err := h.db.CreateSetupToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const pw = "chosen at setup"
	body := func(tok, pw string) string { return `{"setup_token":"` + tok + `","password":"` + pw + `"}` }
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"wrong token", body("nope", pw), http.StatusUnauthorized},
		{"short password", body(token, "short"), http.StatusBadRequest},
		{"missing token", `{"password":"` + pw + `"}`, http.StatusBadRequest},
	} {
		if got := h.do(rq{method: "POST", path: "/api/v1/auth/setup", body: tc.body}); got.status != tc.want {
			t.Fatalf("%s: got %d %s; want %d", tc.name, got.status, got.body, tc.want)
		}
	}
	got := h.do(rq{method: "POST", path: "/api/v1/auth/setup", body: body(token, pw)})
	if got.status != http.StatusOK || got.cookie == nil || got.device == nil {
		t.Fatalf("setup: got %d %s; want 200, a login cookie and a device cookie", got.status, got.body)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs", cookie: got.cookie.Value}); got.status != http.StatusOK {
		t.Errorf("cookie from setup: got %d; want 200", got.status)
	}
	again := h.do(rq{method: "POST", path: "/api/v1/auth/setup", body: body(token, "second try pw")})
	if again.status != http.StatusConflict || again.cookie != nil {
		t.Fatalf("second setup with the same token: got %d %s; want 409 and no cookie", again.status, again.body)
	}
	json.Unmarshal(h.do(rq{method: "GET", path: "/api/v1/auth/status"}).body, &st)
	if st.SetupNeeded {
		t.Errorf("status after setup = %+v; want setup done", st)
	}
	if got := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"` + pw + `"}`}); got.status != http.StatusOK {
		t.Errorf("login with the setup password: got %d; want 200", got.status)
	}
}

// TestForeignRefererWithoutOrigin: a browser that sends no Origin and no
// Sec-Fetch-Site (older ones, some privacy add-ons) is judged by its
// Referer; the right CSRF token does not make another site's request ours.
func TestForeignRefererWithoutOrigin(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.BaseURL = "https://lab.example.org" }})
	fixture(t, h)
	cookie, csrf := h.login()
	self := h.ts.URL + "/runs/r1"
	for _, tc := range []struct {
		name            string
		referer, origin string
		want            int
	}{
		{"foreign Referer", "https://evil.example/page", "", http.StatusForbidden},
		{"foreign Referer on our port", "http://evil.example:" + h.ts.URL[strings.LastIndex(h.ts.URL, ":")+1:] + "/", "", http.StatusForbidden},
		{"unreadable Referer", "::not a url", "", http.StatusForbidden},
		{"non-web Referer", "file:///tmp/x.html", "", http.StatusForbidden},
		{"our own page", self, "", http.StatusNoContent},
		{"the declared base URL", "https://lab.example.org/runs", "", http.StatusNoContent},
		{"no Referer (a script)", "", "", http.StatusNoContent},
		{"Origin decides when present", "https://evil.example/page", h.ts.URL, http.StatusNoContent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rq{method: "POST", path: "/api/v1/runs/r1/interrupt", cookie: cookie, csrf: csrf, origin: tc.origin}
			if tc.referer != "" {
				r.header = map[string]string{"Referer": tc.referer}
			}
			got := h.do(r)
			if got.status != tc.want {
				t.Fatalf("got %d %s; want %d", got.status, got.body, tc.want)
			}
			if tc.want == http.StatusForbidden {
				got.errMsg(t)
			}
		})
	}
	// The login form is held to the same rule.
	got := h.do(rq{method: "POST", path: "/api/v1/auth/login", body: `{"password":"` + testPassword + `"}`,
		header: map[string]string{"Referer": "https://evil.example/login"}})
	if got.status != http.StatusForbidden || got.cookie != nil {
		t.Fatalf("login with a foreign Referer: got %d %s; want 403 and no cookie", got.status, got.body)
	}
}
