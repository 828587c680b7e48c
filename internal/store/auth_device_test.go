package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

func TestKnownDevices(t *testing.T) {
	ctx := context.Background()
	db, clk := openAuthDB(t)
	cookie, d, err := db.RememberDevice(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	id, sig, _ := strings.Cut(cookie, ".")
	if id != d.ID || len(id) != 32 || len(sig) != 43 {
		t.Fatalf("got cookie %q for device %q; want <32 hex>.<43 base64url>", cookie, d.ID)
	}
	got, err := db.KnownDevice(ctx, cookie)
	if err != nil || got.ID != d.ID {
		t.Fatalf("KnownDevice = %+v, %v; want device %s", got, err, d.ID)
	}

	other, _ := openAuthDB(t)
	foreign, _, err := other.RememberDevice(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	flip := func(s string, i int) string {
		b := []byte(s)
		b[i] ^= 1
		return string(b)
	}
	for name, bad := range map[string]string{
		"empty":                    "",
		"no signature":             id,
		"signature changed":        id + "." + flip(sig, 5),
		"id changed":               flip(id, 3) + "." + sig,
		"upper-case id":            strings.ToUpper(id) + "." + sig,
		"another lab's device":     foreign,
		"session-like secret only": sig,
	} {
		if _, err := db.KnownDevice(ctx, bad); conv.KindOf(err) != conv.EUnauthorized {
			t.Errorf("%s: got %v; want EUnauthorized", name, err)
		}
	}

	// A login from the device keeps its cookie and slides its expiry.
	clk.Advance(DeviceTTL - time.Hour)
	again, d2, err := db.RememberDevice(ctx, cookie)
	if err != nil || again != cookie || d2.ID != d.ID || !d2.LastLoginAt.Equal(clk.Now().Truncate(time.Second)) {
		t.Fatalf("RememberDevice(known) = %q %+v %v; want the same cookie, last login now", again, d2, err)
	}
	clk.Advance(DeviceTTL - time.Second)
	if _, err := db.KnownDevice(ctx, cookie); err != nil {
		t.Fatalf("just inside the TTL after the last login: %v; want known", err)
	}
	clk.Advance(time.Second)
	wantKind(t, func() error { _, err := db.KnownDevice(ctx, cookie); return err }(), conv.EUnauthorized)

	// An expired (or forgotten) device gets a new identity at its next login.
	fresh, d3, err := db.RememberDevice(ctx, cookie)
	if err != nil || fresh == cookie || d3.ID == d.ID {
		t.Fatalf("RememberDevice(expired) = %q %+v %v; want a new device", fresh, d3, err)
	}
}

func TestPasswordChangeForgetsDevices(t *testing.T) {
	ctx := context.Background()
	db, _ := openAuthDB(t)
	if err := db.SetPasswordHash(ctx, mustHash(t, "first password")); err != nil {
		t.Fatal(err)
	}
	cookie, _, err := db.RememberDevice(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetPasswordHash(ctx, mustHash(t, "second password")); err != nil {
		t.Fatal(err)
	}
	_, err = db.KnownDevice(ctx, cookie)
	wantKind(t, err, conv.EUnauthorized)
	if !strings.Contains(conv.MessageOf(err), "no longer known") {
		t.Errorf("message %q; want it to say the device is no longer known", conv.MessageOf(err))
	}
}

func TestKnownDevicesAreBounded(t *testing.T) {
	ctx := context.Background()
	db, clk := openAuthDB(t)
	var cookies []string
	for range MaxKnownDevices + 1 {
		c, _, err := db.RememberDevice(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		cookies = append(cookies, c)
		clk.Advance(time.Second)
	}
	if _, err := db.KnownDevice(ctx, cookies[0]); conv.KindOf(err) != conv.EUnauthorized {
		t.Errorf("the device unused longest: %v; want forgotten", err)
	}
	for _, c := range cookies[1:] {
		if _, err := db.KnownDevice(ctx, c); err != nil {
			t.Fatalf("a device among the newest %d: %v; want known", MaxKnownDevices, err)
		}
	}
	var n int
	db.SQL().QueryRow(`SELECT count(*) FROM known_devices`).Scan(&n)
	if n != MaxKnownDevices {
		t.Fatalf("%d known devices; want %d", n, MaxKnownDevices)
	}
}
