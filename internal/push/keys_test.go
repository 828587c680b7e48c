package push

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadOrCreateKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", KeysFile)

	k1, err := LoadOrCreateKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := k1.check(); err != nil {
		t.Fatalf("new keys do not check: %v", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Fatalf("key file mode: got %o; want 600", got)
	}

	k2, err := LoadOrCreateKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if k2 != k1 {
		t.Fatalf("second start: got %+v; want the saved keys %+v", k2, k1)
	}

	// A loosened mode is tightened again.
	os.Chmod(path, 0o644)
	if _, err := LoadOrCreateKeys(path); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("after load: mode %o; want 600", info.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".vapid-*")); len(left) != 0 {
		t.Fatalf("temp files left behind: %v", left)
	}
}

func TestLoadKeysRefusesBadFiles(t *testing.T) {
	other, err := LoadOrCreateKeys(filepath.Join(t.TempDir(), KeysFile))
	if err != nil {
		t.Fatal(err)
	}
	mine, err := LoadOrCreateKeys(filepath.Join(t.TempDir(), KeysFile))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body string
	}{
		{"not json", "{"},
		{"empty", "{}"},
		{"mismatched pair", mustJSON(Keys{Public: other.Public, Private: mine.Private})},
		{"bad base64", `{"public_key":"!!","private_key":"!!"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), KeysFile)
			os.WriteFile(path, []byte(tt.body), 0o600)
			if _, err := LoadOrCreateKeys(path); err == nil {
				t.Fatal("got no error; want the file refused (never silently replaced)")
			}
			if b, _ := os.ReadFile(path); string(b) != tt.body {
				t.Fatalf("the bad file was rewritten: %q", b)
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
