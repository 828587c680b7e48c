package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPinAgreesEverywhere checks that the places outside Go that name the
// pinned version and the verified range say what the constants say, so
// moving the pin is one edit here and a failing test for each place
// forgotten.
func TestPinAgreesEverywhere(t *testing.T) {
	root := filepath.Join("..", "..")
	cases := []struct {
		file string
		want []string
	}{
		{"Makefile", []string{
			"CLAUDE_PINNED ?= " + PinnedVersion + "\n",
			"CLAUDE_OLDEST ?= " + VerifiedOldest + "\n",
			"CLAUDE_NEWEST ?= " + VerifiedNewest + "\n",
		}},
		{"scripts/install-claude.sh", []string{`VERSION="${CLAUDE_CODE_VERSION:-` + PinnedVersion + `}"`}},
		{"README.md", []string{"tools/claude-" + PinnedVersion + "/", "CLI (" + PinnedVersion + ")"}},
		{"web/e2e/continuity.test.mjs", []string{"tools/claude-" + PinnedVersion + "/"}},
		{"docs/cli-versions.md", []string{
			"**Verified**: **" + VerifiedOldest + "–" + VerifiedNewest + "**",
			"**Pinned**: **" + PinnedVersion + "**",
		}},
	}
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s does not say %q: update it with the constants in versions.go", c.file, w)
			}
		}
	}
}
