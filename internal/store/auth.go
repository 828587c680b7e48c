package store

import (
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"time"
)

// newSecret returns 32 random bytes encoded for a cookie, a header or a
// URL. Secrets are handed out once and only their SHA-256 is kept, so a
// leaked database does not let anybody in.
func newSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails since Go 1.24
	return base64.RawURLEncoding.EncodeToString(b)
}

// secretHash is what the database keeps of a secret. A plain SHA-256 is
// enough: the secrets are 256 random bits, not guessable passwords.
func secretHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

func unixTime(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func nullUnixTime(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := unixTime(n.Int64)
	return &t
}
