package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func TestTrustFolderKeepsEverythingElse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude.json")
	orig := `{
  "numStartups": 12,
  "bigNumber": 12345678901234567890,
  "oauthAccount": {"emailAddress": "op@example.com"},
  "projects": {
    "/other": {"hasTrustDialogAccepted": false, "allowedTools": ["Bash"]},
    "/work": {"lastCost": 1.5, "hasTrustDialogAccepted": false}
  }
}`
	if err := os.WriteFile(path, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := TrustFolder(path, "/work"); err != nil {
		t.Fatal(err)
	}
	if err := TrustFolder(path, "/new"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	// Numbers beyond float64 survive byte for byte.
	if !strings.Contains(string(b), "12345678901234567890") {
		t.Fatalf("big number mangled:\n%s", b)
	}
	m := readJSON(t, path)
	if m["numStartups"] != float64(12) || m["oauthAccount"].(map[string]any)["emailAddress"] != "op@example.com" {
		t.Fatalf("top-level keys lost: %v", m)
	}
	projects := m["projects"].(map[string]any)
	other := projects["/other"].(map[string]any)
	if other["hasTrustDialogAccepted"] != false || len(other["allowedTools"].([]any)) != 1 {
		t.Fatalf("got /other %v; want untouched", other)
	}
	work := projects["/work"].(map[string]any)
	if work["hasTrustDialogAccepted"] != true || work["lastCost"] != 1.5 {
		t.Fatalf("got /work %v; want trusted with lastCost kept", work)
	}
	if projects["/new"].(map[string]any)["hasTrustDialogAccepted"] != true {
		t.Fatalf("got /new %v; want trusted", projects["/new"])
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("got mode %v; want 0640 kept", fi.Mode().Perm())
	}
	if _, ok := m["hasCompletedOnboarding"]; ok {
		t.Fatal("TrustFolder touched hasCompletedOnboarding; it must not")
	}
	// No temp files left behind.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("got %d files in the dir; want only .claude.json", len(ents))
	}
}

func TestTrustFolderIsANoOpWhenTrusted(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	orig := `{"projects":{"/w":{"hasTrustDialogAccepted":true}},  "odd":   "spacing"}`
	os.WriteFile(path, []byte(orig), 0o600)
	if err := TrustFolder(path, "/w"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Fatalf("file rewritten to %s; want it untouched", b)
	}
}

func TestTrustFolderRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[1,2`), 0o600)
	if err := TrustFolder(bad, "/w"); err == nil {
		t.Fatal("got no error for an invalid file; want one")
	}
	if b, _ := os.ReadFile(bad); string(b) != `[1,2` {
		t.Fatalf("invalid file changed to %q; want it left alone", b)
	}
	if err := TrustFolder(filepath.Join(dir, "x.json"), "relative"); err == nil {
		t.Fatal("got no error for a relative cwd; want one")
	}
}

func TestTrustFolderFollowsSymlinksAndCreates(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(`{"keep":1}`), 0o600)
	link := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := TrustFolder(link, "/w"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("symlink replaced by a file (%v)", err)
	}
	if m := readJSON(t, real); m["keep"] != float64(1) || m["projects"] == nil {
		t.Fatalf("got %v; want keep and projects in the link target", m)
	}
	fresh := filepath.Join(dir, "fresh", ".claude.json")
	if err := TrustFolder(fresh, "/w"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Fatalf("got mode %v for a new file; want 0600", fi.Mode().Perm())
	}
}

func TestSeedHome(t *testing.T) {
	home := t.TempDir()
	key := "sk-ant-lab-0123456789abcdefghijklmnop"
	if err := SeedHome(home, key, "/a", "/b"); err != nil {
		t.Fatal(err)
	}
	if err := SeedHome(home, key, "/c"); err != nil { // merges, no duplicates
		t.Fatal(err)
	}
	m := readJSON(t, ClaudeJSONPath(home))
	if m["hasCompletedOnboarding"] != true || m["theme"] != "dark" {
		t.Fatalf("got %v; want onboarding done and a theme", m)
	}
	approved := m["customApiKeyResponses"].(map[string]any)["approved"].([]any)
	if len(approved) != 2 || approved[0] != key || approved[1] != key[len(key)-20:] {
		t.Fatalf("got approved %v; want the key and its last 20 characters once each", approved)
	}
	for _, cwd := range []string{"/a", "/b", "/c"} {
		if m["projects"].(map[string]any)[cwd].(map[string]any)["hasTrustDialogAccepted"] != true {
			t.Fatalf("%s not trusted: %v", cwd, m["projects"])
		}
	}
}
