package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Answered is the remembered answer to a request that carried an
// idempotency key: which request it was, and what it got.
type Answered struct {
	Request string // "METHOD /path"
	Status  int
	Body    []byte
	At      time.Time
}

// Remembered returns the answer kept for key, if one younger than maxAge
// is.
func (db *DB) Remembered(ctx context.Context, key string, maxAge time.Duration) (Answered, bool, error) {
	var a Answered
	var at int64
	err := db.sql.QueryRowContext(ctx, `SELECT request, status, body, created_at FROM idempotency WHERE key = ? AND created_at >= ?`,
		key, db.Now().Add(-maxAge).Unix()).Scan(&a.Request, &a.Status, &a.Body, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Answered{}, false, nil
	}
	if err != nil {
		return Answered{}, false, fmt.Errorf("read idempotency key: %w", err)
	}
	a.At = unixTime(at)
	return a, true, nil
}

// Remember keeps the answer to key's request, replacing an expired one,
// and forgets the answers older than maxAge.
func (db *DB) Remember(ctx context.Context, key string, a Answered, maxAge time.Duration) error {
	now := db.Now()
	if a.Body == nil {
		a.Body = []byte{}
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM idempotency WHERE created_at < ?`, now.Add(-maxAge).Unix()); err != nil {
		return fmt.Errorf("forget old idempotency keys: %w", err)
	}
	_, err := db.sql.ExecContext(ctx, `INSERT OR REPLACE INTO idempotency (key, request, status, body, created_at) VALUES (?, ?, ?, ?, ?)`,
		key, a.Request, a.Status, a.Body, now.Unix())
	if err != nil {
		return fmt.Errorf("remember idempotency key: %w", err)
	}
	return nil
}
