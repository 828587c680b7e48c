package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"lab/internal/store"
)

// DefaultSubject is the VAPID contact sent when the operator names none.
// Apple's push service refuses a subject on localhost, so the default is a
// syntactically real address; --push-subject should name the operator's.
const DefaultSubject = "mailto:lab@example.com"

// ErrGone means the push service no longer knows the subscription (404 or
// 410): the browser unsubscribed or the subscription expired. The device
// must be forgotten; retrying cannot help.
var ErrGone = errors.New("the push subscription is gone")

// Sender encrypts a payload for one subscription (RFC 8291, aes128gcm),
// signs the request with the VAPID keys (RFC 8292) and posts it to the
// subscription's push service. The cryptography is webpush-go's.
type Sender struct {
	Keys Keys
	// Subject is the contact the push service may use (mailto: or https:).
	Subject string
	// Client posts to push services; nil means one with a 30 s timeout.
	Client *http.Client
	// TTL is how long a push service keeps an undelivered push; a run
	// blocked for longer is better told by the runs list. Default 1 h.
	TTL time.Duration
}

// SendError is a push service's refusal other than gone.
type SendError struct {
	Status int
	Body   string // the start of the service's answer, for the log
}

func (e *SendError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("the push service answered %d", e.Status)
	}
	return fmt.Sprintf("the push service answered %d: %s", e.Status, e.Body)
}

// topicRE is what the Topic header may hold (RFC 8030: at most 32
// base64url characters).
var topicRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Send delivers p to device d. It returns ErrGone for 404/410, a
// *SendError for any other non-2xx answer, and the transport's error when
// the service could not be reached.
func (s *Sender) Send(ctx context.Context, d store.PushDevice, p Payload) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	ttl := s.TTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	urgency := webpush.UrgencyHigh
	if p.Quiet {
		urgency = webpush.UrgencyNormal
	}
	opts := &webpush.Options{
		HTTPClient:      client,
		Subscriber:      subscriber(s.Subject),
		TTL:             int(ttl / time.Second),
		Urgency:         urgency,
		VAPIDPublicKey:  s.Keys.Public,
		VAPIDPrivateKey: s.Keys.Private,
	}
	// A newer push about the same run replaces one still queued at the
	// push service for an offline phone.
	if topicRE.MatchString(p.Tag) {
		opts.Topic = p.Tag
	}
	sub := &webpush.Subscription{Endpoint: d.Endpoint, Keys: webpush.Keys{P256dh: d.P256dh, Auth: d.Auth}}
	res, err := webpush.SendNotificationWithContext(ctx, body, sub, opts)
	if err != nil {
		return fmt.Errorf("send push: %w", err)
	}
	defer res.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return nil
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		return ErrGone
	}
	return &SendError{Status: res.StatusCode, Body: strings.TrimSpace(string(snippet))}
}

// subscriber is the subject in the form webpush-go takes: it adds
// "mailto:" itself unless the subject is an https URL.
func subscriber(subject string) string {
	if subject == "" {
		subject = DefaultSubject
	}
	return strings.TrimPrefix(subject, "mailto:")
}
