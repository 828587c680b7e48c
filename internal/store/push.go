package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"lab/internal/conv"
)

// PushDevice is one browser subscribed to Web Push. Endpoint and the keys
// are the browser's PushSubscription; the rest is the operator's choice.
type PushDevice struct {
	ID       string
	Name     string
	Endpoint string
	P256dh   string // the browser's public key, base64url
	Auth     string // the browser's auth secret, base64url
	PushOptions
	CreatedAt  time.Time
	LastPushAt *time.Time
	LastError  string // why the last push failed, "" when it went through
}

// PushOptions say what a device is told about.
type PushOptions struct {
	Blocked        bool `json:"blocked"`         // a run waits on a dialog (default on)
	TurnEnd        bool `json:"turn_end"`        // a run's turn ended (default off)
	IncludeContent bool `json:"include_content"` // conversation text in the push (default off)
}

// DefaultPushOptions are a new device's options.
var DefaultPushOptions = PushOptions{Blocked: true}

const pushColumns = `id, name, endpoint, p256dh, auth, push_blocked, push_turn_end, include_content, created_at, last_push_at, last_error`

func scanPushDevice(row interface{ Scan(...any) error }) (PushDevice, error) {
	var d PushDevice
	var created int64
	var last sql.NullInt64
	err := row.Scan(&d.ID, &d.Name, &d.Endpoint, &d.P256dh, &d.Auth, &d.Blocked, &d.TurnEnd, &d.IncludeContent,
		&created, &last, &d.LastError)
	if err != nil {
		return d, err
	}
	d.CreatedAt = time.UnixMilli(created).UTC()
	if last.Valid {
		t := time.UnixMilli(last.Int64).UTC()
		d.LastPushAt = &t
	}
	return d, nil
}

// SavePushDevice records a subscription. A browser that subscribes again
// with the same endpoint keeps its device id and options but gets the new
// name and keys, so re-enabling push on a phone never makes a second row.
// The returned device is what is stored now.
func (db *DB) SavePushDevice(ctx context.Context, d PushDevice) (PushDevice, error) {
	id := newDeviceID()
	now := db.Now().UnixMilli()
	_, err := db.sql.ExecContext(ctx, `INSERT INTO push_devices (`+pushColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, '')
		ON CONFLICT (endpoint) DO UPDATE SET name = excluded.name, p256dh = excluded.p256dh, auth = excluded.auth, last_error = ''`,
		id, d.Name, d.Endpoint, d.P256dh, d.Auth, d.Blocked, d.TurnEnd, d.IncludeContent, now)
	if err != nil {
		return PushDevice{}, conv.Wrap(conv.EInternal, err, "save push device")
	}
	out, err := scanPushDevice(db.sql.QueryRowContext(ctx, `SELECT `+pushColumns+` FROM push_devices WHERE endpoint = ?`, d.Endpoint))
	if err != nil {
		return PushDevice{}, conv.Wrap(conv.EInternal, err, "save push device")
	}
	return out, nil
}

// PushDevices returns every subscribed device, oldest first.
func (db *DB) PushDevices(ctx context.Context) ([]PushDevice, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+pushColumns+` FROM push_devices ORDER BY created_at, id`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list push devices")
	}
	defer rows.Close()
	var out []PushDevice
	for rows.Next() {
		d, err := scanPushDevice(rows)
		if err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list push devices")
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list push devices")
	}
	return out, nil
}

// PushDevice returns one device. Returns conv.ENotFound.
func (db *DB) PushDevice(ctx context.Context, id string) (PushDevice, error) {
	d, err := scanPushDevice(db.sql.QueryRowContext(ctx, `SELECT `+pushColumns+` FROM push_devices WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return PushDevice{}, conv.Errorf(conv.ENotFound, "no push device %s", id)
	}
	if err != nil {
		return PushDevice{}, conv.Wrap(conv.EInternal, err, "read push device")
	}
	return d, nil
}

// UpdatePushDevice renames a device (when name is not "") and sets its
// options. Returns conv.ENotFound.
func (db *DB) UpdatePushDevice(ctx context.Context, id, name string, o PushOptions) (PushDevice, error) {
	res, err := db.sql.ExecContext(ctx, `UPDATE push_devices SET name = coalesce(nullif(?, ''), name),
		push_blocked = ?, push_turn_end = ?, include_content = ? WHERE id = ?`,
		name, o.Blocked, o.TurnEnd, o.IncludeContent, id)
	if err != nil {
		return PushDevice{}, conv.Wrap(conv.EInternal, err, "update push device")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return PushDevice{}, conv.Errorf(conv.ENotFound, "no push device %s", id)
	}
	return db.PushDevice(ctx, id)
}

// DeletePushDevice forgets a device (unsubscribed, or its push service
// said the subscription is gone). Returns conv.ENotFound.
func (db *DB) DeletePushDevice(ctx context.Context, id string) error {
	res, err := db.sql.ExecContext(ctx, `DELETE FROM push_devices WHERE id = ?`, id)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "delete push device")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return conv.Errorf(conv.ENotFound, "no push device %s", id)
	}
	return nil
}

// NotePushResult records when a push to the device was tried and why it
// failed ("" when it went through). An unknown id is not an error: the
// device may have been removed while the push was in flight.
func (db *DB) NotePushResult(ctx context.Context, id string, at time.Time, failure string) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE push_devices SET last_push_at = ?, last_error = ? WHERE id = ?`, at.UnixMilli(), failure, id)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "note push result")
	}
	return nil
}

// newDeviceID is a short random handle; it names the device in URLs and
// in presence reports, and is no secret.
func newDeviceID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "dev_" + hex.EncodeToString(b)
}
