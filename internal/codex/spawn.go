package codex

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"lab/internal/clikit"
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
	Config   []string // more -c overrides (key=value), optional
	ResumeID string   // resume this session instead of starting one
	Prompt   string   // the first prompt, optional
	Images   []string // images attached to the first prompt (--image), optional
}

// SpawnArgv is the command line for o. The prompt goes after "--" so a
// prompt starting with "-" is never taken for a flag (0.171.0 accepts it
// for new and resumed sessions alike). disable_paste_burst keeps the TUI
// from treating a fast paste-then-Enter as one paste with a newline.
func SpawnArgv(o SpawnOptions) []string {
	argv := []string{o.Bin, "-c", "disable_paste_burst=true"}
	argv = append(argv, o.Hooks...)
	argv = append(argv, TrustArgs(o.Trust...)...)
	for _, c := range o.Config {
		argv = append(argv, "-c", c)
	}
	sandbox := o.Sandbox
	if sandbox == "" {
		sandbox = SandboxWorkspaceWrite
	}
	argv = append(argv, "--sandbox", sandbox, "--ask-for-approval", ApprovalOnRequest)
	argv = clikit.Flag(argv, "--model", o.Model)
	argv = clikit.Flag(argv, "--image", strings.Join(o.Images, ","))
	argv = clikit.Flag(argv, "resume", o.ResumeID) // a subcommand, and its session
	return clikit.PromptArg(argv, o.Prompt)
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

// versionProbe runs `codex --version` with an empty temp CODEX_HOME.
var versionProbe = clikit.VersionProbe{
	Home: "CODEX_HOME",
	Parse: func(bin string, out []byte) (string, error) {
		v, err := ParseVersion(string(out))
		if err != nil {
			return "", fmt.Errorf("%s --version: %w", bin, err)
		}
		return v, nil
	},
}

// CLIVersion runs `bin --version` and returns the version number, e.g.
// "0.171.0". Results are cached per binary file.
func CLIVersion(ctx context.Context, bin string) (string, error) {
	return versionProbe.Version(ctx, bin)
}
