package push

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"lab/internal/push/pushtest"
	"lab/internal/store"
)

func TestReadableNamesTheCauseNotTheGoError(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"service error", &SendError{Status: 503, Body: "<html>"}, "the push service (fcm.googleapis.com) had a problem of its own (HTTP 503)"},
		{"refused signature", &SendError{Status: 403}, "refused lab's signature (HTTP 403)"},
		{"rate limited", &SendError{Status: 429}, "limiting how often"},
		{"gone", ErrGone, "no longer knows this device"},
		{"no DNS", fmt.Errorf("send push: %w", &url.Error{Op: "Post", URL: "https://fcm.googleapis.com/fcm/send/SECRET", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Name: "fcm.googleapis.com", Err: "no such host"}}}), "could not be found: is this machine online, and can it resolve fcm.googleapis.com?"},
		{"timeout", fmt.Errorf("send push: %w", context.DeadlineExceeded), "did not answer in time"},
		{"anything else", fmt.Errorf("send push: %w", fmt.Errorf("boom")), "could not be reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Readable(tt.err, "fcm.googleapis.com")
			if !strings.Contains(got, tt.want) {
				t.Fatalf("got %q; want it to say %q", got, tt.want)
			}
			if strings.Contains(got, "SECRET") || strings.Contains(got, "send push:") {
				t.Fatalf("got %q: the raw error leaked", got)
			}
		})
	}
}

// A real send to a port where nothing listens reads as a refusal.
func TestReadableOfARealRefusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &Sender{Keys: testKeys(t)}
	sub := pushtest.New(t).Subscribe(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = s.Send(ctx, store.PushDevice{Endpoint: "http://" + addr + "/push/x", P256dh: sub.P256dh, Auth: sub.Auth}, Payload{Reason: ReasonTest})
	if got := Readable(err, "127.0.0.1"); got != "the push service (127.0.0.1) refused the connection" {
		t.Fatalf("got %q (from %v)", got, err)
	}
}
