// Package pushtest is a stand-in push service for tests: an HTTP server
// that accepts Web Push requests the way a browser vendor's service does,
// holds the subscription's private keys like the browser would, and
// decrypts what arrives (RFC 8291, aes128gcm) after checking the VAPID
// signature (RFC 8292). It is test-only code: lab itself only encrypts,
// through webpush-go.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/hkdf"
)

// Push is one request the service received, decrypted.
type Push struct {
	Path      string // the subscription's endpoint path
	Plaintext []byte
	Header    http.Header
	// VAPIDKey is the k= public key of the Authorization header, checked
	// to have signed its JWT for this service's origin.
	VAPIDKey string
	Claims   map[string]any
	At       time.Time
	Err      error // why decryption or the VAPID check failed
}

// Service is the stand-in push service.
type Service struct {
	Server *httptest.Server

	mu     sync.Mutex
	subs   map[string]*Subscription // by path
	status map[string]int
	got    chan Push
}

// Subscription is one browser's subscription: the endpoint and the keys
// a browser keeps (the private key never leaves it).
type Subscription struct {
	Endpoint string
	P256dh   string // base64url public key, as PushSubscription.getKey gives it
	Auth     string // base64url 16-byte auth secret
	priv     *ecdh.PrivateKey
	auth     []byte
}

// New starts a service; it stops when the test ends.
func New(t testing.TB) *Service {
	s := &Service{subs: map[string]*Subscription{}, status: map[string]int{}, got: make(chan Push, 64)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Server.Close)
	return s
}

// Subscribe makes a new subscription at a fresh endpoint path.
func (s *Service) Subscribe(t testing.TB) *Subscription {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	id := make([]byte, 8)
	rand.Read(id)
	path := "/push/" + base64.RawURLEncoding.EncodeToString(id)
	sub := &Subscription{
		Endpoint: s.Server.URL + path,
		P256dh:   base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()),
		Auth:     base64.RawURLEncoding.EncodeToString(auth),
		priv:     priv, auth: auth,
	}
	s.mu.Lock()
	s.subs[path] = sub
	s.mu.Unlock()
	return sub
}

// SetStatus makes the endpoint of sub answer status from now on (e.g. 410
// for an expired subscription).
func (s *Service) SetStatus(sub *Subscription, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status[strings.TrimPrefix(sub.Endpoint, s.Server.URL)] = status
}

// Received is where every request arrives, decrypted.
func (s *Service) Received() <-chan Push { return s.got }

// Next waits up to timeout for the next push.
func (s *Service) Next(t testing.TB, timeout time.Duration) Push {
	t.Helper()
	select {
	case p := <-s.got:
		return p
	case <-time.After(timeout):
		t.Fatalf("no push arrived within %v", timeout)
		return Push{}
	}
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p := Push{Path: r.URL.Path, Header: r.Header.Clone(), At: time.Now()}
	s.mu.Lock()
	sub := s.subs[r.URL.Path]
	status, forced := s.status[r.URL.Path]
	s.mu.Unlock()
	switch {
	case r.Method != http.MethodPost:
		p.Err = fmt.Errorf("method %s", r.Method)
	case sub == nil:
		p.Err = errors.New("unknown subscription")
		status, forced = http.StatusNotFound, true
	default:
		p.VAPIDKey, p.Claims, p.Err = checkVAPID(r.Header.Get("Authorization"), s.Server.URL)
		if p.Err == nil {
			p.Plaintext, p.Err = Decrypt(body, sub)
		}
	}
	if !forced {
		status = http.StatusCreated
		if p.Err != nil {
			status = http.StatusBadRequest
		}
	}
	select {
	case s.got <- p:
	default:
	}
	w.WriteHeader(status)
}

// Decrypt opens an aes128gcm Web Push message (RFC 8291 §3.4, RFC 8188)
// with the subscription's private key and auth secret, and strips the
// padding.
func Decrypt(body []byte, sub *Subscription) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the aes128gcm header")
	}
	salt := body[:16]
	rs := binary.BigEndian.Uint32(body[16:20])
	idlen := int(body[20])
	if len(body) < 21+idlen {
		return nil, errors.New("truncated key id")
	}
	asPublic := body[21 : 21+idlen]
	ciphertext := body[21+idlen:]
	if rs < 18 || len(ciphertext) > int(rs) {
		return nil, fmt.Errorf("one record of at most %d bytes expected, got %d", rs, len(ciphertext))
	}
	asKey, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("sender key: %w", err)
	}
	secret, err := sub.priv.ECDH(asKey)
	if err != nil {
		return nil, err
	}
	keyInfo := append([]byte("WebPush: info\x00"), sub.priv.PublicKey().Bytes()...)
	keyInfo = append(keyInfo, asPublic...)
	ikm := derive(secret, sub.auth, keyInfo, 32)
	cek := derive(ikm, salt, []byte("Content-Encoding: aes128gcm\x00"), 16)
	nonce := derive(ikm, salt, []byte("Content-Encoding: nonce\x00"), 12)
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	// The last record ends in 0x02 followed by zero padding.
	end := bytes.LastIndexFunc(plain, func(r rune) bool { return r != 0 })
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:end], nil
}

func derive(secret, salt, info []byte, n int) []byte {
	out := make([]byte, n)
	io.ReadFull(hkdf.New(sha256.New, secret, salt, info), out)
	return out
}

// checkVAPID verifies "vapid t=<jwt>, k=<key>": the JWT is ES256-signed
// by k, its audience is the push service's origin and it has not expired.
func checkVAPID(h, origin string) (string, map[string]any, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", nil, fmt.Errorf("authorization %q is not vapid", h)
	}
	var token, key string
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 || key == "" {
		return "", nil, errors.New("malformed vapid authorization")
	}
	kb, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return "", nil, fmt.Errorf("vapid key: %w", err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), kb)
	if err != nil {
		return "", nil, fmt.Errorf("vapid key: %w", err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", nil, errors.New("vapid signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", nil, errors.New("vapid signature does not verify")
	}
	cb, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", nil, fmt.Errorf("vapid claims: %w", err)
	}
	var claims map[string]any
	if err := json.Unmarshal(cb, &claims); err != nil {
		return "", nil, fmt.Errorf("vapid claims: %w", err)
	}
	if claims["aud"] != origin {
		return "", nil, fmt.Errorf("vapid aud %v; want %s", claims["aud"], origin)
	}
	if exp, _ := claims["exp"].(float64); int64(exp) <= time.Now().Unix() {
		return "", nil, errors.New("vapid token expired")
	}
	return key, claims, nil
}
