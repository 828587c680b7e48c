package store

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"lab/internal/conv"
)

// Argon2Params are the argon2id cost parameters of a password hash. They
// are encoded into every stored hash, so raising the defaults later does
// not lock out a password hashed with the old ones.
type Argon2Params struct {
	Time      uint32 // passes over memory
	MemoryKiB uint32
	Threads   uint8
	SaltLen   uint32
	KeyLen    uint32
}

// DefaultArgon2Params follow RFC 9106's second recommended option (t=3,
// 64 MiB, p=4): about 0.12 s per hash on a small two-core machine, and
// login attempts are rate-limited on top. Tests of other packages may
// lower it to keep hashing cheap.
var DefaultArgon2Params = Argon2Params{Time: 3, MemoryKiB: 64 * 1024, Threads: 4, SaltLen: 16, KeyLen: 32}

// Password length limits. The upper bound only keeps hashing cheap to
// refuse; any phrase a person types fits.
const (
	MinPasswordLen = 8    // characters
	MaxPasswordLen = 1024 // bytes
)

// HashPassword hashes password with argon2id and a fresh random salt and
// returns the PHC-style string "$argon2id$v=19$m=..,t=..,p=..$salt$key".
func HashPassword(password string, p Argon2Params) (string, error) {
	if err := checkPasswordShape(password); err != nil {
		return "", err
	}
	if p.Time == 0 || p.MemoryKiB == 0 || p.Threads == 0 || p.SaltLen < 8 || p.KeyLen < 16 {
		return "", fmt.Errorf("argon2 parameters too weak: %+v", p)
	}
	salt := make([]byte, p.SaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.MemoryKiB, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// checkPasswordShape refuses passwords that are too short, too long or not
// text. Returns conv.EInvalid.
func checkPasswordShape(password string) error {
	switch {
	case !utf8.ValidString(password):
		return conv.Errorf(conv.EInvalid, "password must be valid UTF-8 text")
	case utf8.RuneCountInString(password) < MinPasswordLen:
		return conv.Errorf(conv.EInvalid, "password must have at least %d characters", MinPasswordLen)
	case len(password) > MaxPasswordLen:
		return conv.Errorf(conv.EInvalid, "password must have at most %d bytes", MaxPasswordLen)
	}
	return nil
}

// parseHash decodes a string made by HashPassword. It bounds the
// parameters so a corrupt row cannot make verification allocate gigabytes.
func parseHash(encoded string) (p Argon2Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errors.New("not an argon2id hash")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, fmt.Errorf("unsupported argon2 version %q", parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, fmt.Errorf("bad argon2 parameters %q", parts[3])
	}
	if p.Time == 0 || p.Time > 64 || p.MemoryKiB < 8 || p.MemoryKiB > 4*1024*1024 || p.Threads == 0 {
		return p, nil, nil, fmt.Errorf("argon2 parameters out of range %q", parts[3])
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, errors.New("bad argon2 salt")
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) < 16 || len(key) > 256 {
		return p, nil, nil, errors.New("bad argon2 key")
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}

// verifyPassword reports whether password matches encoded, comparing in
// constant time.
func verifyPassword(encoded, password string) (bool, error) {
	p, salt, key, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// HasPassword reports whether the operator password has been set.
func (db *DB) HasPassword(ctx context.Context) (bool, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM operator`).Scan(&n); err != nil {
		return false, conv.Wrap(conv.EInternal, err, "read operator account")
	}
	return n > 0, nil
}

// SetPassword sets (or replaces) the operator password, hashing it with
// DefaultArgon2Params. Replacing the password signs out every browser
// session, forgets every known device and voids any setup token: whoever
// knew the old one is out, and no device keeps its own login allowance.
// Returns conv.EInvalid for an unacceptable password.
func (db *DB) SetPassword(ctx context.Context, password string) error {
	encoded, err := HashPassword(password, DefaultArgon2Params)
	if err != nil {
		return err
	}
	return db.SetPasswordHash(ctx, encoded)
}

// SetPasswordHash is SetPassword for a hash made by HashPassword, e.g. with
// cheaper parameters in tests. Returns conv.EInvalid for a malformed hash.
func (db *DB) SetPasswordHash(ctx context.Context, encoded string) error {
	if _, _, _, err := parseHash(encoded); err != nil {
		return conv.Wrap(conv.EInvalid, err, "malformed password hash")
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "set password")
	}
	defer tx.Rollback()
	// Writes first, so the transaction takes SQLite's write lock at once.
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO operator (id, password_hash, updated_at) VALUES (1, ?, ?)
		  ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
			[]any{encoded, db.Now().Unix()}},
		{`DELETE FROM login_sessions`, nil},
		{`DELETE FROM known_devices`, nil},
		{`DELETE FROM setup_tokens`, nil},
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return conv.Wrap(conv.EInternal, err, "set password")
		}
	}
	if err := tx.Commit(); err != nil {
		return conv.Wrap(conv.EInternal, err, "set password")
	}
	return nil
}

// CheckPassword verifies password against the operator's. Returns
// conv.EConflict when no password is set yet, conv.EUnauthorized when it
// does not match.
func (db *DB) CheckPassword(ctx context.Context, password string) error {
	var encoded string
	err := db.sql.QueryRowContext(ctx, `SELECT password_hash FROM operator WHERE id = 1`).Scan(&encoded)
	if errors.Is(err, sql.ErrNoRows) {
		return conv.Errorf(conv.EConflict, "no password is set yet: use the setup link from the server log or run `lab passwd`")
	}
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "read operator account")
	}
	if len(password) > MaxPasswordLen {
		return conv.Errorf(conv.EUnauthorized, "wrong password")
	}
	ok, err := verifyPassword(encoded, password)
	if err != nil {
		return conv.Wrap(conv.EInternal, err, "stored password hash is unreadable")
	}
	if !ok {
		return conv.Errorf(conv.EUnauthorized, "wrong password")
	}
	return nil
}
