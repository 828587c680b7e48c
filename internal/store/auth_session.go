package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"lab/internal/conv"
)

// Login session lifetimes. A session expires SessionTTL after it was last
// renewed; it is renewed on use at most once per SessionRenewEvery, so an
// active operator stays logged in without a database write per request.
const (
	SessionTTL        = 30 * 24 * time.Hour
	SessionRenewEvery = time.Hour
)

// LoginSession is a browser's logged-in session. The cookie secret itself
// is never stored or returned after creation.
type LoginSession struct {
	ID        string // a short non-secret handle for logs
	CSRFToken string // must come back in X-CSRF-Token on state-changing requests
	CreatedAt time.Time
	ExpiresAt time.Time
	Renewed   bool // this lookup moved ExpiresAt; re-send the cookie
}

func sessionID(hash []byte) string { return hex.EncodeToString(hash[:6]) }

// CreateLoginSession starts a session after a successful login and
// returns its secret (for the cookie) once. Expired sessions are swept
// here, which is often enough for one operator.
func (db *DB) CreateLoginSession(ctx context.Context) (string, LoginSession, error) {
	now := db.Now()
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM login_sessions WHERE expires_at <= ?`, now.Unix()); err != nil {
		return "", LoginSession{}, conv.Wrap(conv.EInternal, err, "create login session")
	}
	token := newSecret()
	h := secretHash(token)
	s := LoginSession{
		ID:        sessionID(h),
		CSRFToken: newSecret(),
		CreatedAt: unixTime(now.Unix()),
		ExpiresAt: unixTime(now.Add(SessionTTL).Unix()),
	}
	if _, err := db.sql.ExecContext(ctx,
		`INSERT INTO login_sessions (token_hash, csrf_token, created_at, renewed_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		h, s.CSRFToken, now.Unix(), now.Unix(), s.ExpiresAt.Unix()); err != nil {
		return "", LoginSession{}, conv.Wrap(conv.EInternal, err, "create login session")
	}
	return token, s, nil
}

// LoginSession looks a session up by its cookie secret and slides its
// expiry. Returns conv.EUnauthorized when it is unknown or expired.
func (db *DB) LoginSession(ctx context.Context, token string) (LoginSession, error) {
	h := secretHash(token)
	var created, renewed, expires int64
	s := LoginSession{ID: sessionID(h)}
	err := db.sql.QueryRowContext(ctx,
		`SELECT csrf_token, created_at, renewed_at, expires_at FROM login_sessions WHERE token_hash = ?`, h).
		Scan(&s.CSRFToken, &created, &renewed, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return LoginSession{}, conv.Errorf(conv.EUnauthorized, "not logged in")
	}
	if err != nil {
		return LoginSession{}, conv.Wrap(conv.EInternal, err, "read login session")
	}
	now := db.Now()
	if now.Unix() >= expires {
		return LoginSession{}, conv.Errorf(conv.EUnauthorized, "the login session expired: log in again")
	}
	s.CreatedAt, s.ExpiresAt = unixTime(created), unixTime(expires)
	if now.Sub(unixTime(renewed)) >= SessionRenewEvery {
		s.ExpiresAt = unixTime(now.Add(SessionTTL).Unix())
		if _, err := db.sql.ExecContext(ctx, `UPDATE login_sessions SET renewed_at = ?, expires_at = ? WHERE token_hash = ?`,
			now.Unix(), s.ExpiresAt.Unix(), h); err != nil {
			return LoginSession{}, conv.Wrap(conv.EInternal, err, "renew login session")
		}
		s.Renewed = true
	}
	return s, nil
}

// DeleteLoginSession ends a session (logout). Ending an unknown session is
// not an error: the outcome is the same.
func (db *DB) DeleteLoginSession(ctx context.Context, token string) error {
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM login_sessions WHERE token_hash = ?`, secretHash(token)); err != nil {
		return conv.Wrap(conv.EInternal, err, "delete login session")
	}
	return nil
}
