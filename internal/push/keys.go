package push

import (
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	webpush "github.com/SherClockHolmes/webpush-go"
)

// Keys are the server's VAPID key pair (RFC 8292): browsers bind a
// subscription to the public key, and every push is signed with the
// private one. Both are unpadded base64url, as the Push API wants them.
type Keys struct {
	Public  string `json:"public_key"`
	Private string `json:"private_key"`
}

// KeysFile is the name of the key file in lab's state folder.
const KeysFile = "vapid.json"

// LoadOrCreateKeys reads the key pair at path, making and saving a new one
// (mode 0600) when the file does not exist yet. The keys must stay the
// same across restarts: a new pair silently orphans every subscription.
func LoadOrCreateKeys(path string) (Keys, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createKeys(path)
	}
	if err != nil {
		return Keys{}, fmt.Errorf("read VAPID keys: %w", err)
	}
	var k Keys
	if err := json.Unmarshal(b, &k); err != nil {
		return Keys{}, fmt.Errorf("VAPID keys in %s: %w", path, err)
	}
	if err := k.check(); err != nil {
		return Keys{}, fmt.Errorf("VAPID keys in %s: %w", path, err)
	}
	// The file holds a signing key: keep it private even if something
	// loosened its mode.
	if info, err := os.Stat(path); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return Keys{}, fmt.Errorf("VAPID keys: %w", err)
		}
	}
	return k, nil
}

func createKeys(path string) (Keys, error) {
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return Keys{}, fmt.Errorf("generate VAPID keys: %w", err)
	}
	k := Keys{Public: pub, Private: priv}
	b, _ := json.MarshalIndent(k, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	// Write aside and rename, so a crash never leaves half a key file
	// that would make the next start invent new keys.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vapid-*.tmp")
	if err != nil {
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	// Link rather than rename: two lab processes starting at once must
	// not each keep a different pair.
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return LoadOrCreateKeys(path)
	} else if err != nil {
		return Keys{}, fmt.Errorf("save VAPID keys: %w", err)
	}
	return k, nil
}

// check verifies that the private key is a P-256 scalar whose public point
// is the public key.
func (k Keys) check() error {
	d, err := base64.RawURLEncoding.DecodeString(k.Private)
	if err != nil {
		return fmt.Errorf("private key: %w", err)
	}
	p, err := base64.RawURLEncoding.DecodeString(k.Public)
	if err != nil {
		return fmt.Errorf("public key: %w", err)
	}
	priv, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return fmt.Errorf("private key: %w", err)
	}
	pub, err := ecdh.P256().NewPublicKey(p)
	if err != nil {
		return fmt.Errorf("public key: %w", err)
	}
	if !priv.PublicKey().Equal(pub) {
		return errors.New("the public key does not belong to the private key")
	}
	return nil
}
