package push

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"net"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
	"lab/internal/store"
)

// Service is Web Push as the API offers it: the public key browsers
// subscribe with, the devices, their options, test pushes and presence.
type Service struct {
	DB       *store.DB
	Keys     Keys
	Notifier *Notifier
	// AllowHTTP accepts http:// endpoints on loopback addresses, for the
	// demo and tests; real push services are always https.
	AllowHTTP bool
}

// Device is a subscribed device as the API shows it. The endpoint is a
// capability URL of the push service and stays on the server; Service
// names only its host.
type Device struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Service    string            `json:"service"`
	Options    store.PushOptions `json:"options"`
	CreatedAt  time.Time         `json:"created_at"`
	LastPushAt *time.Time        `json:"last_push_at,omitempty"`
	LastError  string            `json:"last_error,omitempty"`
}

// Subscription is the browser's PushSubscription.toJSON().
type Subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// SubscribeRequest turns push on for one device.
type SubscribeRequest struct {
	Name         string             `json:"name"`
	Subscription Subscription       `json:"subscription"`
	Options      *store.PushOptions `json:"options,omitempty"` // default: DefaultPushOptions
}

// UpdateRequest renames a device (when Name is set) and sets its options.
type UpdateRequest struct {
	Name    string            `json:"name,omitempty"`
	Options store.PushOptions `json:"options"`
}

// PresenceRequest is a page saying what it shows.
type PresenceRequest struct {
	DeviceID string `json:"device_id"`
	RunID    string `json:"run_id"`
	Visible  bool   `json:"visible"`
}

// PublicKey is the VAPID public key, the applicationServerKey a browser
// subscribes with.
func (s *Service) PublicKey() string { return s.Keys.Public }

// Subscribe records a browser's subscription. Returns conv.EInvalid for a
// malformed name, endpoint or keys.
func (s *Service) Subscribe(ctx context.Context, req SubscribeRequest) (Device, error) {
	name, err := checkName(req.Name)
	if err != nil {
		return Device{}, err
	}
	if err := s.checkEndpoint(req.Subscription.Endpoint); err != nil {
		return Device{}, err
	}
	if err := checkKeys(req.Subscription.Keys.P256dh, req.Subscription.Keys.Auth); err != nil {
		return Device{}, err
	}
	o := store.DefaultPushOptions
	if req.Options != nil {
		o = *req.Options
	}
	d, err := s.DB.SavePushDevice(ctx, store.PushDevice{
		Name: name, Endpoint: req.Subscription.Endpoint,
		P256dh: req.Subscription.Keys.P256dh, Auth: req.Subscription.Keys.Auth, PushOptions: o,
	})
	if err != nil {
		return Device{}, err
	}
	return view(d), nil
}

// Devices lists the subscribed devices, oldest first.
func (s *Service) Devices(ctx context.Context) ([]Device, error) {
	ds, err := s.DB.PushDevices(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Device, 0, len(ds))
	for _, d := range ds {
		out = append(out, view(d))
	}
	return out, nil
}

// Update renames a device and sets its options. Returns conv.ENotFound
// and conv.EInvalid.
func (s *Service) Update(ctx context.Context, id string, req UpdateRequest) (Device, error) {
	name := ""
	if req.Name != "" {
		n, err := checkName(req.Name)
		if err != nil {
			return Device{}, err
		}
		name = n
	}
	d, err := s.DB.UpdatePushDevice(ctx, id, name, req.Options)
	if err != nil {
		return Device{}, err
	}
	return view(d), nil
}

// Unsubscribe forgets a device. Returns conv.ENotFound.
func (s *Service) Unsubscribe(ctx context.Context, id string) error {
	return s.DB.DeletePushDevice(ctx, id)
}

// Test sends a test push now; see Notifier.Test for the errors.
func (s *Service) Test(ctx context.Context, id string) error {
	return s.Notifier.Test(ctx, id)
}

// ReportPresence records what a device's page shows. Returns
// conv.ENotFound for an unknown device, so a page whose subscription was
// pruned learns to subscribe again.
func (s *Service) ReportPresence(ctx context.Context, req PresenceRequest) error {
	if req.DeviceID == "" {
		return conv.Errorf(conv.EInvalid, "device_id is required")
	}
	if _, err := s.DB.PushDevice(ctx, req.DeviceID); err != nil {
		return err
	}
	s.Notifier.Presence().Report(req.DeviceID, req.RunID, req.Visible)
	return nil
}

// Act redeems a notification action's token; see Notifier.Act.
func (s *Service) Act(ctx context.Context, token string) (ActResult, error) {
	return s.Notifier.Act(ctx, token)
}

func view(d store.PushDevice) Device {
	return Device{ID: d.ID, Name: d.Name, Service: hostOf(d.Endpoint), Options: d.PushOptions, CreatedAt: d.CreatedAt, LastPushAt: d.LastPushAt, LastError: d.LastError}
}

// checkName trims a device name and refuses empty, long or control text.
func checkName(n string) (string, error) {
	n = strings.TrimSpace(n)
	switch {
	case n == "":
		return "", conv.Errorf(conv.EInvalid, "name is required: say which device this is")
	case utf8.RuneCountInString(n) > 64:
		return "", conv.Errorf(conv.EInvalid, "name is longer than 64 characters")
	case strings.IndexFunc(n, unicode.IsControl) >= 0:
		return "", conv.Errorf(conv.EInvalid, "name must not contain control characters")
	}
	return n, nil
}

// checkEndpoint wants an absolute https URL (push services are https);
// http only to a loopback address when AllowHTTP.
func (s *Service) checkEndpoint(e string) error {
	u, err := url.Parse(e)
	if err != nil || u.Host == "" || u.User != nil || len(e) > 2048 {
		return conv.Errorf(conv.EInvalid, "subscription.endpoint must be an absolute https URL")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if ip := net.ParseIP(u.Hostname()); s.AllowHTTP && (u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())) {
			return nil
		}
	}
	return conv.Errorf(conv.EInvalid, "subscription.endpoint must be an https URL")
}

// checkKeys wants the browser's P-256 public key and 16-byte auth secret,
// base64url with or without padding.
func checkKeys(p256dh, auth string) error {
	pk, err := decodeKey(p256dh)
	if err != nil {
		return conv.Errorf(conv.EInvalid, "subscription.keys.p256dh is not base64url")
	}
	if _, err := ecdh.P256().NewPublicKey(pk); err != nil {
		return conv.Errorf(conv.EInvalid, "subscription.keys.p256dh is not a P-256 public key")
	}
	a, err := decodeKey(auth)
	if err != nil || len(a) != 16 {
		return conv.Errorf(conv.EInvalid, "subscription.keys.auth must be 16 bytes of base64url")
	}
	return nil
}

func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
