package store

import (
	"context"
	"time"

	"lab/internal/conv"
)

// SetupTokenTTL is how long a first-run setup token stays usable.
const SetupTokenTTL = 24 * time.Hour

// CreateSetupToken makes the one-time token that lets whoever reads the
// server log set the first password from a browser. Any earlier token is
// voided, so only the newest printed link works. Returns conv.EConflict
// when a password is already set.
func (db *DB) CreateSetupToken(ctx context.Context) (string, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return "", conv.Wrap(conv.EInternal, err, "create setup token")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM setup_tokens`); err != nil {
		return "", conv.Wrap(conv.EInternal, err, "create setup token")
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM operator`).Scan(&n); err != nil {
		return "", conv.Wrap(conv.EInternal, err, "create setup token")
	}
	if n > 0 {
		return "", conv.Errorf(conv.EConflict, "a password is already set")
	}
	token := newSecret()
	now := db.Now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO setup_tokens (token_hash, created_at, expires_at) VALUES (?, ?, ?)`,
		secretHash(token), now.Unix(), now.Add(SetupTokenTTL).Unix()); err != nil {
		return "", conv.Wrap(conv.EInternal, err, "create setup token")
	}
	if err := tx.Commit(); err != nil {
		return "", conv.Wrap(conv.EInternal, err, "create setup token")
	}
	return token, nil
}

// SetupPassword sets the first password with a setup token and consumes
// the token, both or neither. Returns conv.EInvalid for an unacceptable
// password, conv.EConflict when a password is already set, and
// conv.EUnauthorized for an unknown, used or expired token.
func (db *DB) SetupPassword(ctx context.Context, token, password string) error {
	// Hash before taking the write lock: it is the slow part.
	encoded, err := HashPassword(password, DefaultArgon2Params)
	if err != nil {
		return err
	}
	return db.setupPasswordHash(ctx, token, encoded)
}

func (db *DB) setupPasswordHash(ctx context.Context, token, encoded string) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	defer tx.Rollback()
	now := db.Now()
	// Consuming the token is the first statement, so it takes the write
	// lock and two racing requests cannot both use one token.
	res, err := tx.ExecContext(ctx, `DELETE FROM setup_tokens WHERE token_hash = ? AND expires_at > ?`, secretHash(token), now.Unix())
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	consumed, err := res.RowsAffected()
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM operator`).Scan(&n); err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	if n > 0 {
		return conv.Errorf(conv.EConflict, "a password is already set: log in instead")
	}
	if consumed == 0 {
		return conv.Errorf(conv.EUnauthorized, "the setup token is unknown, used or expired: restart lab for a new setup link, or run `lab passwd`")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO operator (id, password_hash, updated_at) VALUES (1, ?, ?)`, encoded, now.Unix()); err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM setup_tokens`); err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	if err := tx.Commit(); err != nil {
		return conv.Wrap(conv.EInternal, err, "set up password")
	}
	return nil
}
