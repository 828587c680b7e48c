package push

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"lab/internal/push/pushtest"
	"lab/internal/store"
)

func testKeys(t *testing.T) Keys {
	t.Helper()
	k, err := LoadOrCreateKeys(filepath.Join(t.TempDir(), KeysFile))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func deviceFor(sub *pushtest.Subscription) store.PushDevice {
	return store.PushDevice{ID: "dev_x", Name: "phone", Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, PushOptions: store.DefaultPushOptions}
}

// The push service receives a message only the subscription's keys can
// open, signed with lab's VAPID key for the service's origin.
func TestSendEncryptsForTheSubscription(t *testing.T) {
	svc := pushtest.New(t)
	sub := svc.Subscribe(t)
	keys := testKeys(t)
	s := &Sender{Keys: keys, Subject: "mailto:op@example.org", TTL: 10 * time.Minute}

	want := Payload{Reason: ReasonBlocked, RunID: "r1", URL: "/runs/r1", Title: "lab: a run needs you", Body: "w: a question is waiting", Tag: "run-r1"}
	if err := s.Send(context.Background(), deviceFor(sub), want); err != nil {
		t.Fatal(err)
	}
	got := svc.Next(t, 10*time.Second)
	if got.Err != nil {
		t.Fatalf("push service: %v", got.Err)
	}
	var p Payload
	if err := json.Unmarshal(got.Plaintext, &p); err != nil {
		t.Fatalf("decrypted %q: %v", got.Plaintext, err)
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("decrypted payload: got %+v; want %+v", p, want)
	}
	if got.VAPIDKey != keys.Public {
		t.Errorf("VAPID k: got %s; want lab's public key %s", got.VAPIDKey, keys.Public)
	}
	if got.Claims["sub"] != "mailto:op@example.org" {
		t.Errorf("VAPID sub: got %v; want mailto:op@example.org", got.Claims["sub"])
	}
	for h, v := range map[string]string{"Content-Encoding": "aes128gcm", "Ttl": "600", "Urgency": "high", "Topic": "run-r1"} {
		if got.Header.Get(h) != v {
			t.Errorf("header %s: got %q; want %q", h, got.Header.Get(h), v)
		}
	}

	// Another subscription's keys cannot open it.
	other := svc.Subscribe(t)
	if err := s.Send(context.Background(), store.PushDevice{Endpoint: sub.Endpoint, P256dh: other.P256dh, Auth: other.Auth}, want); err == nil {
		t.Fatal("sending with the wrong keys: got no error; want the service to refuse")
	}
	if got := svc.Next(t, 10*time.Second); got.Err == nil {
		t.Fatal("message encrypted for other keys decrypted with these")
	}

	quiet := Payload{Reason: ReasonTurnEnd, Tag: "has spaces, not a topic", Quiet: true}
	if err := s.Send(context.Background(), deviceFor(sub), quiet); err != nil {
		t.Fatal(err)
	}
	got = svc.Next(t, 10*time.Second)
	if got.Header.Get("Urgency") != "normal" || got.Header.Get("Topic") != "" {
		t.Errorf("quiet push: urgency %q topic %q; want normal and no topic", got.Header.Get("Urgency"), got.Header.Get("Topic"))
	}
}

func TestSendClassifiesAnswers(t *testing.T) {
	svc := pushtest.New(t)
	s := &Sender{Keys: testKeys(t)}
	tests := []struct {
		status int
		gone   bool
	}{
		{http.StatusNotFound, true},
		{http.StatusGone, true},
		{http.StatusTooManyRequests, false},
		{http.StatusInternalServerError, false},
		{http.StatusForbidden, false},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			sub := svc.Subscribe(t)
			svc.SetStatus(sub, tt.status)
			err := s.Send(context.Background(), deviceFor(sub), Payload{Tag: "t"})
			if errors.Is(err, ErrGone) != tt.gone {
				t.Fatalf("got %v; want gone=%v", err, tt.gone)
			}
			var se *SendError
			if !tt.gone && (!errors.As(err, &se) || se.Status != tt.status) {
				t.Fatalf("got %v; want a SendError with status %d", err, tt.status)
			}
		})
	}
	// An unreachable service is a transport error, not gone.
	svc.Server.Close()
	d := deviceFor(svc.Subscribe(t))
	err := s.Send(context.Background(), d, Payload{Tag: "t"})
	var se *SendError
	if err == nil || errors.Is(err, ErrGone) || errors.As(err, &se) {
		t.Fatalf("unreachable service: got %v; want a transport error", err)
	}
}
