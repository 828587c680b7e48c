package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"lab/internal/conv"
)

// Known devices: a browser that logged in once carries a signed cookie
// naming it, and its later login attempts are counted against its own
// allowance rather than its address's or everybody's, so failures
// elsewhere never lock it out.
const (
	// DeviceTTL is how long a device stays known without logging in;
	// browsers keep a cookie 400 days at most.
	DeviceTTL = 400 * 24 * time.Hour
	// MaxKnownDevices bounds the table (scripts that log in with the
	// password and drop cookies would grow it); the device unused longest
	// is forgotten first.
	MaxKnownDevices = 100
)

// KnownDevice is a browser that has logged in before.
type KnownDevice struct {
	ID          string // 32 hex digits; not secret, the cookie is signed
	CreatedAt   time.Time
	LastLoginAt time.Time
}

// deviceMACLabel keeps a device cookie's signature from meaning anything
// else, should the key ever sign something more.
const deviceMACLabel = "lab device cookie v1\x00"

// KnownDevice checks a device cookie: its signature, then that the device
// is remembered (not forgotten by a password change) and not expired.
// Returns conv.EUnauthorized when it is none of those.
func (db *DB) KnownDevice(ctx context.Context, cookie string) (KnownDevice, error) {
	id, ok, err := db.verifyDeviceCookie(ctx, cookie)
	if err != nil {
		return KnownDevice{}, err
	}
	if !ok {
		return KnownDevice{}, conv.Errorf(conv.EUnauthorized, "not a device cookie of this lab")
	}
	var created, last int64
	err = db.sql.QueryRowContext(ctx, `SELECT created_at, last_login_at FROM known_devices WHERE id = ?`, id).Scan(&created, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return KnownDevice{}, conv.Errorf(conv.EUnauthorized, "the device is no longer known")
	}
	if err != nil {
		return KnownDevice{}, conv.Wrap(conv.EInternal, err, "read known device")
	}
	d := KnownDevice{ID: id, CreatedAt: unixTime(created), LastLoginAt: unixTime(last)}
	if !db.Now().Before(d.LastLoginAt.Add(DeviceTTL)) {
		return KnownDevice{}, conv.Errorf(conv.EUnauthorized, "the device has not logged in for too long")
	}
	return d, nil
}

// RememberDevice records a successful login from the browser that sent
// cookie: a known device is touched and keeps its cookie; anything else
// ("" included) becomes a new known device. It returns the cookie value
// to send back either way.
func (db *DB) RememberDevice(ctx context.Context, cookie string) (string, KnownDevice, error) {
	now := db.Now()
	if d, err := db.KnownDevice(ctx, cookie); err == nil {
		if _, err := db.sql.ExecContext(ctx, `UPDATE known_devices SET last_login_at = ? WHERE id = ?`, now.Unix(), d.ID); err != nil {
			return "", KnownDevice{}, conv.Wrap(conv.EInternal, err, "remember device")
		}
		d.LastLoginAt = unixTime(now.Unix())
		return cookie, d, nil
	} else if conv.KindOf(err) != conv.EUnauthorized {
		return "", KnownDevice{}, err
	}
	key, err := db.deviceKey(ctx)
	if err != nil {
		return "", KnownDevice{}, err
	}
	b := make([]byte, 16)
	rand.Read(b)
	d := KnownDevice{ID: hex.EncodeToString(b), CreatedAt: unixTime(now.Unix()), LastLoginAt: unixTime(now.Unix())}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return "", KnownDevice{}, conv.Wrap(conv.EInternal, err, "remember device")
	}
	defer tx.Rollback()
	for _, s := range []struct {
		q    string
		args []any
	}{
		{`INSERT INTO known_devices (id, created_at, last_login_at) VALUES (?, ?, ?)`, []any{d.ID, now.Unix(), now.Unix()}},
		{`DELETE FROM known_devices WHERE last_login_at <= ?`, []any{now.Add(-DeviceTTL).Unix()}},
		{`DELETE FROM known_devices WHERE id NOT IN (SELECT id FROM known_devices ORDER BY last_login_at DESC, rowid DESC LIMIT ?)`, []any{MaxKnownDevices}},
	} {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return "", KnownDevice{}, conv.Wrap(conv.EInternal, err, "remember device")
		}
	}
	if err := tx.Commit(); err != nil {
		return "", KnownDevice{}, conv.Wrap(conv.EInternal, err, "remember device")
	}
	return d.ID + "." + signDevice(key, d.ID), d, nil
}

// verifyDeviceCookie reports whether cookie is "<id>.<signature>" signed
// with this lab's key, and returns the id.
func (db *DB) verifyDeviceCookie(ctx context.Context, cookie string) (string, bool, error) {
	id, sig, ok := strings.Cut(cookie, ".")
	if !ok || len(id) != 32 || strings.ToLower(id) != id {
		return "", false, nil
	}
	if _, err := hex.DecodeString(id); err != nil {
		return "", false, nil
	}
	key, err := db.deviceKey(ctx)
	if err != nil {
		return "", false, err
	}
	return id, hmac.Equal([]byte(sig), []byte(signDevice(key, id))), nil
}

func signDevice(key []byte, id string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(deviceMACLabel + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// deviceKey returns the key that signs device cookies, making it on first
// use.
func (db *DB) deviceKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := db.sql.QueryRowContext(ctx, `SELECT key FROM device_key WHERE id = 1`).Scan(&key)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, conv.Wrap(conv.EInternal, err, "read device key")
	}
	key = make([]byte, 32)
	rand.Read(key)
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO device_key (id, key, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING`,
		key, db.Now().Unix()); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "create device key")
	}
	// Another request may have made one first: use whichever is stored.
	if err := db.sql.QueryRowContext(ctx, `SELECT key FROM device_key WHERE id = 1`).Scan(&key); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "read device key")
	}
	return key, nil
}
