package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"lab/internal/push"
	"lab/internal/push/pushtest"
	"lab/internal/store"
)

// pushDevice subscribes a device at the stand-in push service directly in
// the store and returns its id.
func (h *harness) pushDevice(name string) string {
	h.t.Helper()
	sub := h.pushSvc.Subscribe(h.t)
	d, err := h.db.SavePushDevice(context.Background(), store.PushDevice{Name: name, Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, PushOptions: store.DefaultPushOptions})
	if err != nil {
		h.t.Fatal(err)
	}
	return d.ID
}

func subscribeBody(name string, sub *pushtest.Subscription) string {
	return fmt.Sprintf(`{"name":%q,"subscription":{"endpoint":%q,"keys":{"p256dh":%q,"auth":%q}}}`, name, sub.Endpoint, sub.P256dh, sub.Auth)
}

func TestPushSubscribeListUpdateTest(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	tok := h.token("t")

	var key PushKey
	r := h.do(rq{method: "GET", path: "/api/v1/push/key", bearer: tok})
	if json.Unmarshal(r.body, &key); r.status != 200 || len(key.PublicKey) != 87 {
		t.Fatalf("key: got %d %s; want a 65-byte key in base64url", r.status, r.body)
	}

	sub := h.pushSvc.Subscribe(t)
	r = h.do(rq{method: "POST", path: "/api/v1/push/devices", body: subscribeBody("  Pixel  ", sub), bearer: tok})
	var d push.Device
	if json.Unmarshal(r.body, &d); r.status != 201 || d.ID == "" || d.Name != "Pixel" || d.Options != store.DefaultPushOptions || d.Service != "127.0.0.1" {
		t.Fatalf("subscribe: got %d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), sub.Endpoint) || strings.Contains(string(r.body), sub.Auth) {
		t.Fatalf("the API echoed the endpoint or the auth secret: %s", r.body)
	}

	r = h.do(rq{method: "POST", path: "/api/v1/push/devices/" + d.ID, body: `{"name":"My Pixel","options":{"blocked":true,"turn_end":true,"include_content":true}}`, bearer: tok})
	var u push.Device
	if json.Unmarshal(r.body, &u); r.status != 200 || u.Name != "My Pixel" || u.Options != (store.PushOptions{Blocked: true, TurnEnd: true, IncludeContent: true}) {
		t.Fatalf("update: got %d %s", r.status, r.body)
	}

	r = h.do(rq{method: "POST", path: "/api/v1/push/devices/" + d.ID + "/test", bearer: tok})
	if r.status != 204 {
		t.Fatalf("test push: got %d %s", r.status, r.body)
	}
	got := h.pushSvc.Next(t, 10*time.Second)
	var p push.Payload
	if got.Err != nil || json.Unmarshal(got.Plaintext, &p) != nil || p.Reason != push.ReasonTest || p.Body != "Push works on My Pixel." {
		t.Fatalf("the push service got %+v (%q); want the decrypted test push", got, got.Plaintext)
	}
	if got.VAPIDKey != key.PublicKey {
		t.Fatalf("signed with %s; want the served key %s", got.VAPIDKey, key.PublicKey)
	}

	var list DeviceList
	r = h.do(rq{method: "GET", path: "/api/v1/push/devices", bearer: tok})
	if json.Unmarshal(r.body, &list); r.status != 200 || len(list.Devices) != 1 || list.Devices[0].LastPushAt == nil {
		t.Fatalf("list: got %d %s; want the device with its last push", r.status, r.body)
	}

	// The subscription expires: the test push says so and the device goes.
	h.pushSvc.SetStatus(sub, http.StatusGone)
	r = h.do(rq{method: "POST", path: "/api/v1/push/devices/" + d.ID + "/test", bearer: tok})
	if r.status != http.StatusConflict || !strings.Contains(r.errMsg(t), "turn notifications on again") {
		t.Fatalf("test push to a gone subscription: got %d %s; want 409", r.status, r.body)
	}
	r = h.do(rq{method: "GET", path: "/api/v1/push/devices", bearer: tok})
	if json.Unmarshal(r.body, &list); len(list.Devices) != 0 {
		t.Fatalf("after 410: got %s; want no devices", r.body)
	}
	r = h.do(rq{method: "POST", path: "/api/v1/push/presence", body: `{"device_id":"` + d.ID + `","run_id":"r1","visible":true}`, bearer: tok})
	if r.status != http.StatusNotFound {
		t.Fatalf("presence of a pruned device: got %d; want 404 so the page subscribes again", r.status)
	}
}

func TestPushRefusesBadInput(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	tok := h.token("t")
	sub := h.pushSvc.Subscribe(t)
	good := func(mut func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal([]byte(subscribeBody("phone", sub)), &m)
		mut(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	setSub := func(k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["subscription"].(map[string]any)[k] = v }
	}
	setKey := func(k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["subscription"].(map[string]any)["keys"].(map[string]any)[k] = v }
	}
	tests := []struct {
		name, body, want string
	}{
		{"no name", good(func(m map[string]any) { m["name"] = " " }), "name is required"},
		{"long name", good(func(m map[string]any) { m["name"] = strings.Repeat("x", 65) }), "longer than 64"},
		{"control in name", good(func(m map[string]any) { m["name"] = "a\x07b" }), "control"},
		{"no endpoint", good(setSub("endpoint", "")), "https URL"},
		{"plain http elsewhere", good(setSub("endpoint", "http://push.example.com/x")), "https URL"},
		{"other scheme", good(setSub("endpoint", "ftp://push.example.com/x")), "https URL"},
		{"relative", good(setSub("endpoint", "/x")), "https URL"},
		{"key not base64", good(setKey("p256dh", "!!!")), "p256dh"},
		{"key not a point", good(setKey("p256dh", "BAAA")), "P-256"},
		{"short auth", good(setKey("auth", "AAAA")), "16 bytes"},
		{"unknown field", good(func(m map[string]any) { m["colour"] = "red" }), "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(rq{method: "POST", path: "/api/v1/push/devices", body: tt.body, bearer: tok})
			if r.status != http.StatusBadRequest || !strings.Contains(r.errMsg(t), tt.want) {
				t.Fatalf("got %d %s; want 400 mentioning %q", r.status, r.body, tt.want)
			}
		})
	}
	var list DeviceList
	r := h.do(rq{method: "GET", path: "/api/v1/push/devices", bearer: tok})
	if json.Unmarshal(r.body, &list); len(list.Devices) != 0 {
		t.Fatalf("refused subscriptions were stored: %s", r.body)
	}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/v1/push/devices/dev_nope", `{"options":{}}`},
		{"DELETE", "/api/v1/push/devices/dev_nope", ""},
		{"POST", "/api/v1/push/devices/dev_nope/test", ""},
		{"POST", "/api/v1/push/presence", `{"device_id":"dev_nope","run_id":"r1","visible":true}`},
	} {
		if r := h.do(rq{method: c.method, path: c.path, body: c.body, bearer: tok}); r.status != http.StatusNotFound {
			t.Errorf("%s %s: got %d %s; want 404", c.method, c.path, r.status, r.body)
		}
	}
	if r := h.do(rq{method: "POST", path: "/api/v1/push/presence", body: `{"run_id":"r1"}`, bearer: tok}); r.status != http.StatusBadRequest {
		t.Errorf("presence without a device: got %d; want 400", r.status)
	}
	r = h.do(rq{method: "PUT", path: "/api/v1/push/devices/dev_x", bearer: tok})
	if r.status != http.StatusMethodNotAllowed || r.header.Get("Allow") != "POST, DELETE" {
		t.Errorf("PUT on a device: got %d Allow %q; want 405 with POST, DELETE", r.status, r.header.Get("Allow"))
	}
}

func TestPushOffAnswers503(t *testing.T) {
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Push = nil }})
	tok := h.token("t")
	r := h.do(rq{method: "GET", path: "/api/v1/push/key", bearer: tok})
	if r.status != http.StatusServiceUnavailable || !strings.Contains(r.errMsg(t), "not enabled") {
		t.Fatalf("got %d %s; want 503", r.status, r.body)
	}
}

// A notification's action needs no login: its token is the credential.
// Without a valid one nothing is answered.
func TestPushActTakesOnlyAToken(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	r := h.do(rq{method: "POST", path: "/api/v1/push/act", body: `{"token":"forged"}`})
	if r.status != http.StatusNotFound || !strings.Contains(r.errMsg(t), "expired or was already used") {
		t.Fatalf("a forged token: got %d %s; want 404 saying so", r.status, r.body)
	}
	if r := h.do(rq{method: "POST", path: "/api/v1/push/act", body: `{}`}); r.status != http.StatusBadRequest {
		t.Fatalf("no token: got %d %s; want 400", r.status, r.body)
	}
	if r := h.do(rq{method: "GET", path: "/api/v1/push/act"}); r.status != http.StatusMethodNotAllowed {
		t.Fatalf("GET: got %d; want 405", r.status)
	}
}
