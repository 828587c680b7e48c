// Package claudetest is the harness for tests that drive the real Claude
// Code CLI: it finds the pinned binary, builds isolated HOMEs that skip the
// first-run screens, starts the scripted model (fakeclaudeapi) and a
// private tmux server, and spawns the CLI in a pane sized like a run's. No
// test using it ever touches the machine's own ~/.claude or tmux server.
package claudetest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/clitest"
	"lab/internal/fakeclaudeapi"
	"lab/internal/tmux"
)

// APIKey is the key the harness gives the CLI; the scripted model accepts
// anything, and the seeded HOME pre-approves this one.
const APIKey = "sk-ant-lab-test-00000000000000000000"

// InstallPath is where scripts/install-claude.sh puts version v of the
// CLI, relative to the module root.
func InstallPath(v string) string {
	return filepath.Join("tools", "claude-"+v, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe")
}

// CLI returns the path of the real CLI under test: $LAB_CLAUDE_BIN (which
// the Makefile sets, and `make drift` points at other versions), else the
// pinned install under the module root. A missing binary fails the test
// (never skips it), saying how to install it.
func CLI(t testing.TB) string { return clitest.MustBin(t, "claudetest", FindCLI) }

// FindCLI is CLI without a test: the binary path or an error that says how
// to install it.
func FindCLI() (string, error) {
	return clitest.FindBin("LAB_CLAUDE_BIN", InstallPath(claude.PinnedVersion), func(path string) string {
		return "the Claude Code CLI is not installed at " + path + ": run scripts/install-claude.sh (or make claude) for the pinned " + claude.PinnedVersion + ", or point LAB_CLAUDE_BIN at one"
	})
}

// CLIVersion returns the version the CLI under test reports, the way lab
// learns it (claude.CLIVersion): tests compare against this, never against
// the pin, so the suite runs unchanged against any installed version.
func CLIVersion(t testing.TB) string {
	t.Helper()
	v, err := claude.CLIVersion(context.Background(), CLI(t))
	if err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	return v
}

// installedVersionRE finds the version in an install folder's name, as
// scripts/install-claude.sh makes them: .../claude-2.1.332/node_modules/...
var installedVersionRE = regexp.MustCompile(`(?:^|/)claude-(\d+\.\d+\.\d+)/`)

// InstalledVersion returns the version the install folder of bin names
// ("2.1.332" for tools/claude-2.1.332/…), or "" when its path names none.
func InstalledVersion(bin string) string {
	if m := installedVersionRE.FindStringSubmatch(filepath.ToSlash(bin)); m != nil {
		return m[1]
	}
	return ""
}

// The pieces every real-CLI harness shares (see clitest), under the names
// the tests that use this harness know them by.
var (
	ModuleRoot   = clitest.ModuleRoot
	ShortTempDir = clitest.ShortTempDir
	Tmux         = clitest.Tmux
	Poll         = clitest.Poll
)

// Home makes an isolated HOME whose ~/.claude.json has onboarding done,
// APIKey approved and each of trusted marked as a trusted folder.
func Home(t testing.TB, trusted ...string) string {
	t.Helper()
	home := filepath.Join(ShortTempDir(t, "labhome"), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := claude.SeedHome(home, APIKey, trusted...); err != nil {
		t.Fatal(err)
	}
	return home
}

// Env is the environment the CLI needs to run against the scripted model
// at baseURL with home as HOME, with telemetry and other outbound traffic
// off.
func Env(home, baseURL string) map[string]string {
	return map[string]string{
		"HOME":               home,
		"ANTHROPIC_BASE_URL": baseURL,
		"ANTHROPIC_API_KEY":  APIKey,
		"DISABLE_TELEMETRY":  "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"DISABLE_AUTOUPDATER":                      "1",
	}
}

// API starts the scripted model on loopback, closed at cleanup.
func API(t testing.TB, opts fakeclaudeapi.Options) *fakeclaudeapi.Server {
	t.Helper()
	s := fakeclaudeapi.New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Rig is one CLI test setup: the scripted model, an isolated HOME, a
// trusted working directory and a private tmux server, whose panes it
// drives (clitest.Term).
type Rig struct {
	clitest.Term
	Bin  string
	API  *fakeclaudeapi.Server
	Home string
	Work string // trusted, empty at start
	Env  map[string]string

	t testing.TB
}

// NewRig builds a Rig. opts tune the scripted model.
func NewRig(t testing.TB, opts fakeclaudeapi.Options) *Rig {
	t.Helper()
	r := &Rig{Bin: CLI(t), t: t}
	r.Work = filepath.Join(ShortTempDir(t, "labwork"), "work")
	if err := os.MkdirAll(r.Work, 0o755); err != nil {
		t.Fatal(err)
	}
	r.Home = Home(t, r.Work)
	r.API = API(t, opts)
	r.Term = clitest.NewTerm(t, Tmux(t), 150*time.Millisecond)
	r.Env = Env(r.Home, r.API.URL())
	return r
}

// Spawn starts the CLI with args in a new 120x45 tmux session named name,
// in r.Work.
func (r *Rig) Spawn(name string, args ...string) {
	r.t.Helper()
	err := r.Tmux.NewSession(context.Background(), tmux.SessionOptions{
		Name: name, Dir: r.Work, Width: 120, Height: 45, Env: r.Env,
		Argv: append([]string{r.Bin}, args...),
	})
	if err != nil {
		r.t.Fatalf("claudetest: spawn: %v", err)
	}
}

// WaitRequest waits for a request to the scripted model matching match.
func (r *Rig) WaitRequest(timeout time.Duration, what string, match func(fakeclaudeapi.Request) bool) fakeclaudeapi.Request {
	r.t.Helper()
	return clitest.WaitRequest(r.t, &r.API.Base, timeout, what, match)
}
