package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSeedHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "codex")
	err := SeedHome(home, HomeConfig{BaseURL: "http://127.0.0.1:1234/", EnvKey: "K", Trusted: []string{`/w/a "b"`}, ExcludeTmp: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	for _, want := range []string{
		`model = "gpt-5.5"`, `model_provider = "local"`, `base_url = "http://127.0.0.1:1234/v1"`, `env_key = "K"`, `wire_api = "responses"`,
		"check_for_update_on_startup = false", "[analytics]\nenabled = false", "daemon_auto_start = false", "plugins = false",
		"default_mode_request_user_input = true", "[tools.update_plan]\nenabled = true", "exclude_slash_tmp = true",
		`[projects."/w/a \"b\""]` + "\ntrust_level = \"trusted\"", `"gpt-5.5" = "gpt-6-sol"`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("config.toml lacks %q:\n%s", want, b)
		}
	}
	if err := SeedHome(home, HomeConfig{BaseURL: "x", EnvKey: "K"}); err == nil {
		t.Fatal("SeedHome overwrote an existing config")
	}
	if err := SeedHome(t.TempDir(), HomeConfig{BaseURL: "x", EnvKey: "K", Trusted: []string{"rel"}}); err == nil {
		t.Fatal("SeedHome accepted a relative trusted folder")
	}
}

func TestHomeDefault(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := Home(getenv, "/home/me"); got != "/home/me/.codex" {
		t.Fatalf("Home = %q", got)
	}
	env["CODEX_HOME"] = "/x"
	if got := Home(getenv, "/home/me"); got != "/x" {
		t.Fatalf("Home with CODEX_HOME = %q", got)
	}
}
