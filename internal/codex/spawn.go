package codex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Sandbox modes `codex --sandbox` accepts on 0.171.0.
const (
	SandboxReadOnly       = "read-only"
	SandboxWorkspaceWrite = "workspace-write"
	SandboxFullAccess     = "danger-full-access"
)

// SandboxModes lists them, lab's default (workspace-write) first.
var SandboxModes = []string{SandboxWorkspaceWrite, SandboxReadOnly, SandboxFullAccess}

// ValidSandbox reports whether mode is one of SandboxModes.
func ValidSandbox(mode string) bool { return slices.Contains(SandboxModes, mode) }

// ApprovalOnRequest is the approval policy lab runs with: the agent works
// inside the sandbox and asks (an approval prompt) before anything beyond
// it. `codex --ask-for-approval` accepts on-request and never on 0.171.0.
const ApprovalOnRequest = "on-request"

// modelRE accepts model names ("gpt-5.5", "o3", "gpt-5.1-codex-max"),
// never anything that could read as a flag.
var modelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$`)

// ValidModel reports whether model is acceptable for --model.
func ValidModel(model string) bool { return modelRE.MatchString(model) }

// sessionIDRE is a rollout's session id: a UUID.
var sessionIDRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ValidSessionID reports whether id can name a rollout.
func ValidSessionID(id string) bool { return sessionIDRE.MatchString(id) }

// SpawnOptions describe one interactive CLI process.
type SpawnOptions struct {
	Bin      string
	Sandbox  string   // --sandbox, default workspace-write
	Model    string   // --model, optional
	Hooks    []string // HookArgs(spoolDir), optional
	Trust    []string // folders to run as trusted (TrustArgs), optional
	ResumeID string   // resume this session instead of starting one
	Prompt   string   // the first prompt, optional
}

// SpawnArgv is the command line for o. The prompt goes after "--" so a
// prompt starting with "-" is never taken for a flag (0.171.0 accepts it
// for new and resumed sessions alike). disable_paste_burst keeps the TUI
// from treating a fast paste-then-Enter as one paste with a newline.
func SpawnArgv(o SpawnOptions) []string {
	argv := []string{o.Bin, "-c", "disable_paste_burst=true"}
	argv = append(argv, o.Hooks...)
	argv = append(argv, TrustArgs(o.Trust...)...)
	sandbox := o.Sandbox
	if sandbox == "" {
		sandbox = SandboxWorkspaceWrite
	}
	argv = append(argv, "--sandbox", sandbox, "--ask-for-approval", ApprovalOnRequest)
	if o.Model != "" {
		argv = append(argv, "--model", o.Model)
	}
	if o.ResumeID != "" {
		argv = append(argv, "resume", o.ResumeID)
	}
	if o.Prompt != "" {
		argv = append(argv, "--", o.Prompt)
	}
	return argv
}

// ResolveBin finds the codex binary: a path with a slash must exist and be
// executable; a bare name is looked up in PATH. The npm package's `codex`
// on PATH is a Node launcher of the same binary and works too.
func ResolveBin(bin string) (string, error) {
	if bin == "" {
		bin = "codex"
	}
	if !strings.Contains(bin, "/") {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Errorf("%q not found in PATH", bin)
		}
		return p, nil
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("%s: %w", bin, errors.Unwrap(err))
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", bin)
	}
	return bin, nil
}

// versionRE finds the version in `codex --version` output
// ("codex-cli 0.171.0").
var versionRE = regexp.MustCompile(`\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\b`)

// ParseVersion reads the version number from `codex --version` output.
func ParseVersion(out string) (string, error) {
	m := versionRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("no version number in %q", strings.TrimSpace(out))
	}
	return m[1], nil
}

// versionCache remembers CLIVersion per binary, keyed by path, size and
// mtime so an upgrade in place is noticed.
var versionCache sync.Map // versionKey -> string

type versionKey struct {
	path  string
	size  int64
	mtime time.Time
}

// CLIVersion runs `bin --version` and returns the version number, e.g.
// "0.171.0". Results are cached per binary file.
func CLIVersion(ctx context.Context, bin string) (string, error) {
	fi, err := os.Stat(bin)
	if err != nil {
		return "", err
	}
	key := versionKey{bin, fi.Size(), fi.ModTime()}
	if v, ok := versionCache.Load(key); ok {
		return v.(string), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// --version needs no home; an empty temp CODEX_HOME keeps it from
	// touching the operator's.
	home, err := os.MkdirTemp("", "lab-codex-version-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	v, err := ParseVersion(string(out))
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	versionCache.Store(key, v)
	return v, nil
}
