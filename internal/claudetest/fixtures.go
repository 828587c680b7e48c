package claudetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Captured fixtures are kept per CLI version, each set in its own folder
// with the same layout: captured/ (transcripts, hook logs, first panes of
// the capture conversations), hooks/ (single pinned payloads) and panes/
// (picker and prompt screens). The oldest verified version's set, 2.1.328,
// sits at the top of internal/claude/testdata where it was first
// captured; later versions' sets under internal/claude/testdata/v<version>.

// FixtureVersions are the versions with a committed fixture set, oldest
// first.
var FixtureVersions = []string{"2.1.328", "2.1.332"}

// legacyFixtureVersion is the set kept at the top of testdata.
const legacyFixtureVersion = "2.1.328"

// FixtureDir is the folder of version v's fixture set, relative to the
// module root.
func FixtureDir(v string) string {
	if v == legacyFixtureVersion {
		return filepath.Join("internal", "claude", "testdata")
	}
	return filepath.Join("internal", "claude", "testdata", "v"+v)
}

// CaptureDir is where the capture generators write: $LAB_CAPTURE_DIR when
// set (`make drift` captures into a temporary folder, never over the
// committed fixtures), else the fixture set of the CLI under test.
func CaptureDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("LAB_CAPTURE_DIR"); d != "" {
		return d
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, FixtureDir(CLIVersion(t)))
}
