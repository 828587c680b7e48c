package claude_test

import (
	"testing"

	"lab/internal/claude"
	"lab/internal/claudetest"
)

// TestCLIVersionOfTheRealCLI pins the version the recipes key on.
func TestCLIVersionOfTheRealCLI(t *testing.T) {
	v, err := claude.CLIVersion(t.Context(), claudetest.CLI(t))
	if err != nil || v != claudetest.Version {
		t.Fatalf("got %q, %v; want %s", v, err, claudetest.Version)
	}
}
