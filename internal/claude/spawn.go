package claude

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"lab/internal/clikit"
)

// PermissionModes are the values `claude --permission-mode` accepts. On
// 2.1.328–2.1.332 its --help lists acceptEdits, auto, bypassPermissions, manual,
// dontAsk and plan; "default" is not listed but still accepted (it is the
// older name of manual).
var PermissionModes = []string{"acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan", "default"}

// ValidPermissionMode reports whether mode is one of PermissionModes.
func ValidPermissionMode(mode string) bool {
	for _, m := range PermissionModes {
		if m == mode {
			return true
		}
	}
	return false
}

// modelRE accepts model aliases and full names ("opus", "claude-opus-4-1",
// "claude-sonnet-4-5[1m]", "us.anthropic.claude…:0"), never anything
// that could read as a flag.
var modelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@\[\]-]{0,127}$`)

// ValidModel reports whether model is acceptable for --model.
func ValidModel(model string) bool { return modelRE.MatchString(model) }

// SpawnOptions describe one interactive CLI process.
type SpawnOptions struct {
	Bin            string // the claude binary
	Settings       string // --settings file (the run's hooks)
	Model          string // --model, optional
	PermissionMode string // --permission-mode, optional
	Prompt         string // the first prompt, optional
	// Resume continues a session (--resume <id>). On 2.1.328 the CLI
	// keeps the session id and appends to the same transcript file.
	Resume string
}

// SpawnArgv is the command line for o. The prompt goes after "--" so a
// prompt starting with "-" is never taken for a flag.
func SpawnArgv(o SpawnOptions) []string {
	argv := clikit.Flag([]string{o.Bin}, "--settings", o.Settings)
	argv = clikit.Flag(argv, "--model", o.Model)
	argv = clikit.Flag(argv, "--permission-mode", o.PermissionMode)
	argv = clikit.Flag(argv, "--resume", o.Resume)
	return clikit.PromptArg(argv, o.Prompt)
}

// versionRE finds the version in `claude --version` output
// ("2.1.328 (Claude Code)").
var versionRE = regexp.MustCompile(`\b(\d+\.\d+\.\d+)\b`)

// versionProbe runs `claude --version` in an empty temp HOME, with the
// CLI's telemetry and other traffic off.
var versionProbe = clikit.VersionProbe{
	Home: "HOME",
	Env:  []string{"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"},
	Parse: func(bin string, out []byte) (string, error) {
		m := versionRE.FindSubmatch(out)
		if m == nil {
			return "", fmt.Errorf("%s --version printed %q, no version number", bin, strings.TrimSpace(string(out)))
		}
		return string(m[1]), nil
	},
}

// CLIVersion runs `bin --version` and returns the version number, e.g.
// "2.1.328". Results are cached per binary file.
func CLIVersion(ctx context.Context, bin string) (string, error) {
	return versionProbe.Version(ctx, bin)
}
