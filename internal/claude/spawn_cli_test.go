package claude_test

import (
	"regexp"
	"testing"

	"lab/internal/claude"
	"lab/internal/claudetest"
)

// TestCLIVersionOfTheRealCLI reads the version of the CLI under test the
// way lab does. The binary's install folder names the version it was
// installed as (tools/claude-<v>/…), and the CLI must report exactly that:
// a mismatch means LAB_CLAUDE_BIN points at another install than the one
// the suite is meant to test, or the version parsing broke.
func TestCLIVersionOfTheRealCLI(t *testing.T) {
	bin := claudetest.CLI(t)
	v, err := claude.CLIVersion(t.Context(), bin)
	if err != nil || !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(v) {
		t.Fatalf("got %q, %v; want a version number", v, err)
	}
	if want := claudetest.InstalledVersion(bin); want != "" && v != want {
		t.Fatalf("%s reports %s; want %s, the version its install folder names", bin, v, want)
	}
	t.Logf("CLI under test: %s (verified: %v)", v, claude.VersionVerified(v))
}
