package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Home returns the CODEX_HOME a process with environment lookup would use:
// $CODEX_HOME, else ~/.codex under home.
func Home(getenv func(string) string, home string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return h
	}
	return filepath.Join(home, ".codex")
}

// SessionsDir is where the CLI keeps rollouts under a CODEX_HOME.
func SessionsDir(codexHome string) string { return filepath.Join(codexHome, "sessions") }

// TrustArgs returns the flags that run the CLI with each of cwds trusted
// (a trusted folder skips the CLI's "Trust this folder?" screen, shown for
// git repositories on 0.171.0). A session flag, not an edit of the
// operator's config.toml: one inline table, since a dotted -c key splits
// a path that holds dots. Layered over the config, it adds to the trusted
// folders the operator already has.
func TrustArgs(cwds ...string) []string {
	if len(cwds) == 0 {
		return nil
	}
	parts := make([]string, 0, len(cwds))
	for _, c := range cwds {
		parts = append(parts, tomlString(c)+`={trust_level="trusted"}`)
	}
	return []string{"-c", "projects={" + strings.Join(parts, ",") + "}"}
}

// DefaultModel is the model lab's tests and demo name: a model the CLI's
// own catalog knows on 0.171.0 (so no "metadata not found" warning), with
// the plain tool set (exec_command, apply_patch, request_user_input,
// update_plan) rather than the code-mode-only tools of the newest models.
const DefaultModel = "gpt-5.5"

// ProviderID is the name of the model provider SeedHome configures.
const ProviderID = "local"

// HomeConfig is what SeedHome writes.
type HomeConfig struct {
	Model   string   // default DefaultModel
	BaseURL string   // the scripted model's base URL (without /v1)
	EnvKey  string   // the environment variable holding the API key
	Trusted []string // folders to mark trusted
	// ExcludeTmp keeps /tmp and $TMPDIR out of the workspace-write
	// sandbox's writable roots, so writing beside a workspace under /tmp
	// asks for approval as it would elsewhere.
	ExcludeTmp bool
}

// SeedHome writes config.toml into a fresh, isolated CODEX_HOME (tests,
// the demo) so the CLI starts straight at its prompt against a scripted
// model: a custom Responses provider, no update check, no analytics, no
// background daemon or plugins, request_user_input in Default mode, the
// update_plan tool, trusted folders, and the notices that would otherwise
// open the TUI on a model upgrade screen already seen. It refuses to
// overwrite an existing config: never call it on the operator's own
// CODEX_HOME.
func SeedHome(codexHome string, c HomeConfig) error {
	if c.BaseURL == "" || c.EnvKey == "" {
		return errors.New("codex home: BaseURL and EnvKey are required")
	}
	model := c.Model
	if model == "" {
		model = DefaultModel
	}
	path := filepath.Join(codexHome, "config.toml")
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists; SeedHome only seeds a fresh CODEX_HOME", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "model = %s\nmodel_provider = %s\n", tomlString(model), tomlString(ProviderID))
	b.WriteString("check_for_update_on_startup = false\nsuppress_unstable_features_warning = true\n\n")
	fmt.Fprintf(&b, "[model_providers.%s]\nname = \"lab scripted model\"\nbase_url = %s\nenv_key = %s\nwire_api = \"responses\"\n\n",
		ProviderID, tomlString(strings.TrimSuffix(c.BaseURL, "/")+"/v1"), tomlString(c.EnvKey))
	b.WriteString("[analytics]\nenabled = false\n\n")
	b.WriteString("[features]\ndaemon_auto_start = false\nplugins = false\ndefault_mode_request_user_input = true\n\n")
	b.WriteString("[tools.update_plan]\nenabled = true\n\n")
	if c.ExcludeTmp {
		b.WriteString("[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n\n")
	}
	for _, cwd := range c.Trusted {
		if !filepath.IsAbs(cwd) {
			return fmt.Errorf("trust %q: not an absolute path", cwd)
		}
		fmt.Fprintf(&b, "[projects.%s]\ntrust_level = \"trusted\"\n\n", tomlString(cwd))
	}
	// The screens the TUI shows once and then remembers as seen.
	b.WriteString("[tui]\nscreen_reader_detection_done = true\n\n")
	b.WriteString("[tui.model_availability_nux]\n\"gpt-6.1-sol\" = 100\n\n")
	b.WriteString("[notice.model_migrations]\n\"gpt-5.5\" = \"gpt-6-sol\"\n")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}
