// Package claudetest is the harness for tests that drive the real Claude
// Code CLI: it finds the pinned binary, builds isolated HOMEs that skip the
// first-run screens, starts the scripted model (fakeclaudeapi) and a
// private tmux server, and spawns the CLI in a pane sized like a run's. No
// test using it ever touches the machine's own ~/.claude or tmux server.
package claudetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lab/internal/claude"
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
func CLI(t testing.TB) string {
	t.Helper()
	path, err := FindCLI()
	if err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	return path
}

// FindCLI is CLI without a test: the binary path or an error that says how
// to install it.
func FindCLI() (string, error) {
	var path string
	if p := os.Getenv("LAB_CLAUDE_BIN"); p != "" {
		path = p
	} else {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		path = filepath.Join(root, InstallPath(claude.PinnedVersion))
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", errors.New("the Claude Code CLI is not installed at " + path + ": run scripts/install-claude.sh (or make claude) for the pinned " + claude.PinnedVersion + ", or point LAB_CLAUDE_BIN at one")
	}
	return path, nil
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

// ModuleRoot finds the directory holding go.mod, walking up from the
// working directory (a test runs in its package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("claudetest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// ShortTempDir makes a temp dir with a short path, removed at cleanup.
// tmux sockets must fit in a sockaddr_un (108 bytes), which t.TempDir's
// long names can overflow.
func ShortTempDir(t testing.TB, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	// Resolve symlinks (macOS /tmp, odd TMPDIRs) so paths compare equal to
	// what the CLI reports.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

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

// Tmux returns a tmux server on a private socket, killed at cleanup.
func Tmux(t testing.TB) *tmux.Server {
	t.Helper()
	s := tmux.New(filepath.Join(ShortTempDir(t, "labtmux"), "sock"))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.KillServer(ctx)
	})
	return s
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

// Poll calls cond until it returns true or timeout passes, then fails the
// test with what it was waiting for.
func Poll(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("claudetest: timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Rig is one CLI test setup: the scripted model, an isolated HOME, a
// trusted working directory and a private tmux server.
type Rig struct {
	Bin  string
	API  *fakeclaudeapi.Server
	Home string
	Work string // trusted, empty at start
	Tmux *tmux.Server
	Env  map[string]string
	// KeyPause is the pause after each key Keys sends.
	KeyPause time.Duration

	t testing.TB
}

// NewRig builds a Rig. opts tune the scripted model.
func NewRig(t testing.TB, opts fakeclaudeapi.Options) *Rig {
	t.Helper()
	r := &Rig{Bin: CLI(t), t: t, KeyPause: 150 * time.Millisecond}
	r.Work = filepath.Join(ShortTempDir(t, "labwork"), "work")
	if err := os.MkdirAll(r.Work, 0o755); err != nil {
		t.Fatal(err)
	}
	r.Home = Home(t, r.Work)
	r.API = API(t, opts)
	r.Tmux = Tmux(t)
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

// Pane returns the visible pane text of target.
func (r *Rig) Pane(target string) string {
	out, _ := r.Tmux.Capture(context.Background(), target)
	return out
}

// WaitPane waits until target's pane shows want and returns the pane.
func (r *Rig) WaitPane(target, want string, timeout time.Duration) string {
	r.t.Helper()
	var last string
	deadline := time.Now().Add(timeout)
	for {
		last = r.Pane(target)
		if strings.Contains(last, want) {
			return last
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("claudetest: pane %s never showed %q within %v; last:\n%s", target, want, timeout, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitPaneSettled waits until target's pane shows want and has stopped
// changing for settle, and returns it. A picker that has just appeared can
// still be mounting; keys sent into it then have been seen to be lost
// under load, so drive it only once it is still.
func (r *Rig) WaitPaneSettled(target, want string, settle, timeout time.Duration) string {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	var since time.Time
	for {
		cur := r.Pane(target)
		if cur != last {
			last, since = cur, time.Now()
		}
		if strings.Contains(cur, want) && time.Since(since) >= settle {
			return cur
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("claudetest: pane %s never settled showing %q within %v; last:\n%s", target, want, timeout, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Keys sends named keys one per call with KeyPause after each: bursts in
// one send-keys call have been seen to lose keys.
func (r *Rig) Keys(target string, keys ...string) {
	r.t.Helper()
	for _, k := range keys {
		if err := r.Tmux.SendKey(context.Background(), target, k); err != nil {
			r.t.Fatalf("claudetest: key %s: %v", k, err)
		}
		time.Sleep(r.KeyPause)
	}
}

// Paste types text into target as a bracketed paste, then pauses.
func (r *Rig) Paste(target, text string) {
	r.t.Helper()
	if err := r.Tmux.Paste(context.Background(), target, text); err != nil {
		r.t.Fatalf("claudetest: paste: %v", err)
	}
	time.Sleep(r.KeyPause)
}

// WaitRequest waits for a request to the scripted model matching match.
func (r *Rig) WaitRequest(timeout time.Duration, what string, match func(fakeclaudeapi.Request) bool) fakeclaudeapi.Request {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := r.API.Wait(ctx, match)
	if err != nil {
		r.t.Fatalf("claudetest: waiting for %s: %v", what, err)
	}
	return req
}
