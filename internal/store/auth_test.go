package store

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
)

// cheapArgon2 keeps tests fast; the parameters travel inside the hash, so
// verification uses them too.
var cheapArgon2 = Argon2Params{Time: 1, MemoryKiB: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

// fakeClock is a settable clock for DB.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func openAuthDB(t *testing.T) (*DB, *fakeClock) {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &fakeClock{t: time.Date(2026, 7, 8, 12, 0, 0, 0, time.UTC)}
	db.Now = clk.Now
	return db, clk
}

func wantKind(t *testing.T, err error, want conv.ErrorKind) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error; want kind %s", want)
	}
	if got := conv.KindOf(err); got != want {
		t.Fatalf("got kind %s (%v); want %s", got, err, want)
	}
}

func mustHash(t *testing.T, pw string) string {
	t.Helper()
	h, err := HashPassword(pw, cheapArgon2)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHashPasswordRoundTripAndSalt(t *testing.T) {
	a, b := mustHash(t, "correct horse"), mustHash(t, "correct horse")
	if a == b {
		t.Fatalf("two hashes of one password are equal (%s); want distinct salts", a)
	}
	if !strings.HasPrefix(a, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("got hash %q; want the parameters encoded in a PHC string", a)
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsf", false}, {"", false}} {
		got, err := verifyPassword(a, tc.pw)
		if err != nil || got != tc.want {
			t.Errorf("verify(%q) = %v, %v; want %v", tc.pw, got, err, tc.want)
		}
	}
}

func TestDefaultParamsAreEncoded(t *testing.T) {
	h, err := HashPassword("a long enough password", DefaultArgon2Params)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _, err := parseHash(h)
	if err != nil || p != DefaultArgon2Params {
		t.Fatalf("got params %+v (%v); want %+v", p, err, DefaultArgon2Params)
	}
}

func TestPasswordShape(t *testing.T) {
	for _, tc := range []struct {
		name, pw string
		ok       bool
	}{
		{"short", "1234567", false},
		{"eight runes", "éééééééé", true},
		{"too long", strings.Repeat("x", MaxPasswordLen+1), false},
		{"max", strings.Repeat("x", MaxPasswordLen), true},
		{"not utf8", "abcdefgh\xff", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := HashPassword(tc.pw, cheapArgon2)
			if tc.ok && err != nil {
				t.Fatalf("got %v; want accepted", err)
			}
			if !tc.ok {
				wantKind(t, err, conv.EInvalid)
			}
		})
	}
}

func TestParseHashRejectsCorruptRows(t *testing.T) {
	good := mustHash(t, "password1")
	parts := strings.Split(good, "$")
	for name, bad := range map[string]string{
		"empty":       "",
		"bcrypt":      "$2a$10$abcdefghijklmnopqrstuv",
		"argon2i":     strings.Replace(good, "argon2id", "argon2i", 1),
		"old version": strings.Replace(good, "v=19", "v=16", 1),
		"huge memory": strings.Replace(good, "m=64,", "m=99999999,", 1),
		"zero time":   strings.Replace(good, "t=1,", "t=0,", 1),
		"bad salt":    "$" + strings.Join(append(parts[1:4:4], "!!", parts[5]), "$"),
		"short key":   "$" + strings.Join(append(parts[1:5:5], "AAAA"), "$"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, _, err := parseHash(bad); err == nil {
				t.Fatalf("parseHash(%q) succeeded; want an error", bad)
			}
		})
	}
}

func TestCheckPassword(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	if has, err := db.HasPassword(ctx); err != nil || has {
		t.Fatalf("fresh db HasPassword = %v, %v; want false", has, err)
	}
	wantKind(t, db.CheckPassword(ctx, "anything1"), conv.EConflict)
	wantKind(t, db.SetPasswordHash(ctx, "not a hash"), conv.EInvalid)
	if err := db.SetPasswordHash(ctx, mustHash(t, "first password")); err != nil {
		t.Fatal(err)
	}
	if has, _ := db.HasPassword(ctx); !has {
		t.Fatal("HasPassword = false after SetPasswordHash; want true")
	}
	if err := db.CheckPassword(ctx, "first password"); err != nil {
		t.Fatalf("right password: got %v; want nil", err)
	}
	wantKind(t, db.CheckPassword(ctx, "wrong password"), conv.EUnauthorized)
	wantKind(t, db.CheckPassword(ctx, strings.Repeat("x", MaxPasswordLen+1)), conv.EUnauthorized)
	// Replacing works and the old one stops working.
	if err := db.SetPasswordHash(ctx, mustHash(t, "second password")); err != nil {
		t.Fatal(err)
	}
	wantKind(t, db.CheckPassword(ctx, "first password"), conv.EUnauthorized)
	if err := db.CheckPassword(ctx, "second password"); err != nil {
		t.Fatalf("new password: got %v; want nil", err)
	}
}

func TestSetPasswordSignsOutSessions(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	if err := db.SetPasswordHash(ctx, mustHash(t, "first password")); err != nil {
		t.Fatal(err)
	}
	tok, _, err := db.CreateLoginSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetPassword(ctx, "another password"); err != nil {
		t.Fatal(err)
	}
	_, err = db.LoginSession(ctx, tok)
	wantKind(t, err, conv.EUnauthorized)
}

func TestSetupTokenIsSingleUse(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	old, err := db.CreateSetupToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := db.CreateSetupToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hash := mustHash(t, "setup password")
	wantKind(t, db.setupPasswordHash(ctx, old, hash), conv.EUnauthorized) // voided by the newer one
	wantKind(t, db.setupPasswordHash(ctx, "guess", hash), conv.EUnauthorized)
	wantKind(t, db.SetupPassword(ctx, tok, "short"), conv.EInvalid)
	if err := db.setupPasswordHash(ctx, tok, hash); err != nil {
		t.Fatalf("first use: got %v; want nil", err)
	}
	if err := db.CheckPassword(ctx, "setup password"); err != nil {
		t.Fatalf("password after setup: got %v; want nil", err)
	}
	wantKind(t, db.setupPasswordHash(ctx, tok, mustHash(t, "hijacked pw")), conv.EConflict)
	_, err = db.CreateSetupToken(ctx)
	wantKind(t, err, conv.EConflict)
	var n int
	db.SQL().QueryRow(`SELECT count(*) FROM setup_tokens`).Scan(&n)
	if n != 0 {
		t.Fatalf("got %d setup tokens left; want 0", n)
	}
}

func TestSetupTokenExpires(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	tok, err := db.CreateSetupToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(SetupTokenTTL)
	wantKind(t, db.setupPasswordHash(ctx, tok, mustHash(t, "late password")), conv.EUnauthorized)
}

func TestSetupTokenRace(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	tok, err := db.CreateSetupToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hashes := []string{mustHash(t, "racer one!"), mustHash(t, "racer two!")}
	errs := make([]error, len(hashes))
	var wg sync.WaitGroup
	for i, h := range hashes {
		wg.Go(func() { errs[i] = db.setupPasswordHash(ctx, tok, h) })
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
		} else if conv.KindOf(err) != conv.EConflict {
			t.Fatalf("losing setup: got %v; want conflict", err)
		}
	}
	if wins != 1 {
		t.Fatalf("got %d successful setups (%v); want exactly 1", wins, errs)
	}
}

func TestLoginSessionSlidingExpiry(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	tok, s, err := db.CreateLoginSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) < 43 || s.CSRFToken == "" || s.CSRFToken == tok {
		t.Fatalf("got token %q csrf %q; want two distinct 32-byte secrets", tok, s.CSRFToken)
	}
	var stored []byte
	db.SQL().QueryRow(`SELECT token_hash FROM login_sessions`).Scan(&stored)
	if strings.Contains(string(stored), tok) || len(stored) != 32 {
		t.Fatalf("stored %d bytes; want only the 32-byte SHA-256 of the secret", len(stored))
	}

	clk.Advance(SessionRenewEvery / 2)
	got, err := db.LoginSession(ctx, tok)
	if err != nil || got.Renewed || !got.ExpiresAt.Equal(s.ExpiresAt) || got.CSRFToken != s.CSRFToken {
		t.Fatalf("early lookup = %+v, %v; want unrenewed %v with the same CSRF token", got, err, s.ExpiresAt)
	}
	// Used every 29 days, a session lives on well past its first expiry.
	for range 3 {
		clk.Advance(SessionTTL - 24*time.Hour)
		got, err = db.LoginSession(ctx, tok)
		if err != nil || !got.Renewed {
			t.Fatalf("lookup after %v = %+v, %v; want renewed", SessionTTL-24*time.Hour, got, err)
		}
		if want := clk.Now().Add(SessionTTL).UTC(); !got.ExpiresAt.Equal(want) {
			t.Fatalf("got expiry %v; want %v", got.ExpiresAt, want)
		}
	}
	clk.Advance(SessionTTL)
	_, err = db.LoginSession(ctx, tok)
	wantKind(t, err, conv.EUnauthorized)

	_, err = db.LoginSession(ctx, "unknown")
	wantKind(t, err, conv.EUnauthorized)
}

func TestDeleteLoginSession(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	a, _, _ := db.CreateLoginSession(ctx)
	b, _, _ := db.CreateLoginSession(ctx)
	if err := db.DeleteLoginSession(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := db.LoginSession(ctx, a); conv.KindOf(err) != conv.EUnauthorized {
		t.Fatalf("deleted session lookup: got %v; want unauthorized", err)
	}
	if _, err := db.LoginSession(ctx, b); err != nil {
		t.Fatalf("other session: got %v; want still valid", err)
	}
	// Creating a session sweeps expired ones.
	clk.Advance(SessionTTL + time.Second)
	db.CreateLoginSession(ctx)
	var n int
	db.SQL().QueryRow(`SELECT count(*) FROM login_sessions`).Scan(&n)
	if n != 1 {
		t.Fatalf("got %d sessions after sweep; want 1", n)
	}
}

func TestAPITokens(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	for _, bad := range []string{"", "-x", "has space", strings.Repeat("a", 65), "ünï"} {
		_, _, err := db.CreateAPIToken(ctx, bad)
		wantKind(t, err, conv.EInvalid)
	}
	secret, tok, err := db.CreateAPIToken(ctx, "ci")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, APITokenPrefix) || tok.Name != "ci" || tok.ID == "" {
		t.Fatalf("got %q %+v; want a lab_ secret and a named token", secret, tok)
	}
	_, _, err = db.CreateAPIToken(ctx, "ci")
	wantKind(t, err, conv.EConflict)
	clk.Advance(time.Second)
	secret2, tok2, err := db.CreateAPIToken(ctx, "backup")
	if err != nil {
		t.Fatal(err)
	}

	got, err := db.CheckAPIToken(ctx, secret)
	if err != nil || got.ID != tok.ID || got.LastUsedAt == nil || !got.LastUsedAt.Equal(clk.Now()) {
		t.Fatalf("CheckAPIToken = %+v, %v; want %s used now", got, err, tok.ID)
	}
	for _, bad := range []string{"", "lab_", secret + "x", strings.TrimPrefix(secret, APITokenPrefix)} {
		_, err := db.CheckAPIToken(ctx, bad)
		wantKind(t, err, conv.EUnauthorized)
	}

	list, err := db.APITokens(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "ci" || list[1].Name != "backup" {
		t.Fatalf("APITokens = %+v, %v; want ci then backup", list, err)
	}
	if list[1].LastUsedAt != nil {
		t.Fatalf("unused token has LastUsedAt %v; want nil", list[1].LastUsedAt)
	}

	if r, err := db.RevokeAPIToken(ctx, "ci"); err != nil || r.ID != tok.ID {
		t.Fatalf("revoke by name = %+v, %v; want %s", r, err, tok.ID)
	}
	_, err = db.CheckAPIToken(ctx, secret)
	wantKind(t, err, conv.EUnauthorized)
	if r, err := db.RevokeAPIToken(ctx, tok2.ID); err != nil || r.Name != "backup" {
		t.Fatalf("revoke by id = %+v, %v; want backup", r, err)
	}
	_, err = db.CheckAPIToken(ctx, secret2)
	wantKind(t, err, conv.EUnauthorized)
	_, err = db.RevokeAPIToken(ctx, "ci")
	wantKind(t, err, conv.ENotFound)
	// A revoked name can be reused.
	if _, _, err := db.CreateAPIToken(ctx, "ci"); err != nil {
		t.Fatalf("recreate ci: got %v; want nil", err)
	}
}

func TestAPITokenLastUsedWritesAreThrottled(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	secret, _, _ := db.CreateAPIToken(ctx, "poller")
	first, _ := db.CheckAPIToken(ctx, secret)
	clk.Advance(tokenUseGranularity / 2)
	second, _ := db.CheckAPIToken(ctx, secret)
	if !second.LastUsedAt.Equal(*first.LastUsedAt) {
		t.Fatalf("got last used %v within the granularity; want unchanged %v", second.LastUsedAt, first.LastUsedAt)
	}
	clk.Advance(tokenUseGranularity)
	third, _ := db.CheckAPIToken(ctx, secret)
	if !third.LastUsedAt.Equal(clk.Now()) {
		t.Fatalf("got last used %v; want %v", third.LastUsedAt, clk.Now())
	}
}
