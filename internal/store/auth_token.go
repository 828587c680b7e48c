package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"

	"lab/internal/conv"
)

// APITokenPrefix starts every bearer token, so a leaked one is easy to
// recognise (and to grep for) as lab's.
const APITokenPrefix = "lab_"

// tokenUseGranularity limits last_used_at writes to one per token per
// minute, so scripts polling the API do not write on every request.
const tokenUseGranularity = time.Minute

// APIToken describes a bearer token for scripts. The secret is shown only
// once, by CreateAPIToken.
type APIToken struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Scope      string     `json:"scope,omitempty"` // "" (everything) or ScopeRelay
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
}

// ScopeRelay is the scope of a token a hub uses to relay this lab's runs:
// it reaches runs, sessions, providers, folders and events, nothing that
// manages lab (tokens, peers, push devices, the password).
const ScopeRelay = "relay"

const tokenColumns = `id, name, scope, created_at, last_used_at`

var tokenNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CreateAPIToken makes a named bearer token and returns its secret once.
// Returns conv.EInvalid for a bad name and conv.EConflict when the name is
// taken.
func (db *DB) CreateAPIToken(ctx context.Context, name string) (string, APIToken, error) {
	return db.CreateScopedAPIToken(ctx, name, "")
}

// CreateScopedAPIToken is CreateAPIToken for a token limited to scope
// ("" for none, or ScopeRelay).
func (db *DB) CreateScopedAPIToken(ctx context.Context, name, scope string) (string, APIToken, error) {
	if scope != "" && scope != ScopeRelay {
		return "", APIToken{}, conv.Errorf(conv.EInvalid, "token scope %q: want %q or none", scope, ScopeRelay)
	}
	if !tokenNameRE.MatchString(name) {
		return "", APIToken{}, conv.Errorf(conv.EInvalid,
			"token name %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	secret := APITokenPrefix + newSecret()
	h := secretHash(secret)
	now := db.Now()
	t := APIToken{ID: hex.EncodeToString(h[:6]), Name: name, Scope: scope, CreatedAt: unixTime(now.Unix())}
	res, err := db.sql.ExecContext(ctx,
		`INSERT INTO api_tokens (id, name, scope, token_hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		t.ID, t.Name, t.Scope, h, now.Unix())
	if err != nil {
		return "", APIToken{}, conv.Wrap(conv.EInternal, err, "create API token")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return "", APIToken{}, conv.Errorf(conv.EConflict, "a token named %q already exists", name)
	}
	return secret, t, nil
}

// APITokens lists the tokens in the order they were created.
func (db *DB) APITokens(ctx context.Context) ([]APIToken, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens ORDER BY created_at, rowid`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list API tokens")
	}
	defer rows.Close()
	var out []APIToken
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list API tokens")
	}
	return out, nil
}

func scanToken(row interface{ Scan(...any) error }) (APIToken, error) {
	var t APIToken
	var created int64
	var used sql.NullInt64
	if err := row.Scan(&t.ID, &t.Name, &t.Scope, &created, &used); err != nil {
		return APIToken{}, err
	}
	t.CreatedAt, t.LastUsedAt = unixTime(created), nullUnixTime(used)
	return t, nil
}

// RevokeAPIToken deletes the token with that name or id; it stops working
// at once. Returns conv.ENotFound when there is none.
func (db *DB) RevokeAPIToken(ctx context.Context, nameOrID string) (APIToken, error) {
	// A name may look like another token's id; the name wins.
	t, err := scanToken(db.sql.QueryRowContext(ctx,
		`SELECT `+tokenColumns+` FROM api_tokens WHERE name = ? OR id = ? ORDER BY name = ? DESC LIMIT 1`,
		nameOrID, nameOrID, nameOrID))
	if errors.Is(err, sql.ErrNoRows) {
		return APIToken{}, conv.Errorf(conv.ENotFound, "no token named or with id %q", nameOrID)
	}
	if err != nil {
		return APIToken{}, conv.Wrap(conv.EInternal, err, "revoke API token")
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM api_tokens WHERE id = ?`, t.ID); err != nil {
		return APIToken{}, conv.Wrap(conv.EInternal, err, "revoke API token")
	}
	return t, nil
}

// HasAPIToken reports whether the token with that id is still there (not
// revoked): a long-lived stream opened with it checks now and then.
func (db *DB) HasAPIToken(ctx context.Context, id string) (bool, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM api_tokens WHERE id = ?`, id).Scan(&n); err != nil {
		return false, conv.Wrap(conv.EInternal, err, "read API token")
	}
	return n > 0, nil
}

// CheckAPIToken finds the token for a bearer secret and notes its use.
// Returns conv.EUnauthorized when the secret is unknown or revoked.
func (db *DB) CheckAPIToken(ctx context.Context, secret string) (APIToken, error) {
	if !strings.HasPrefix(secret, APITokenPrefix) {
		return APIToken{}, conv.Errorf(conv.EUnauthorized, "invalid or revoked API token")
	}
	h := secretHash(secret)
	t, err := scanToken(db.sql.QueryRowContext(ctx,
		`SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = ?`, h))
	if errors.Is(err, sql.ErrNoRows) {
		return APIToken{}, conv.Errorf(conv.EUnauthorized, "invalid or revoked API token")
	}
	if err != nil {
		return APIToken{}, conv.Wrap(conv.EInternal, err, "read API token")
	}
	now := db.Now()
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= tokenUseGranularity {
		if _, err := db.sql.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, now.Unix(), t.ID); err != nil {
			return APIToken{}, conv.Wrap(conv.EInternal, err, "note API token use")
		}
		used := unixTime(now.Unix())
		t.LastUsedAt = &used
	}
	return t, nil
}
