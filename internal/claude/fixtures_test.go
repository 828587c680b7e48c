package claude

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fixtureSet is the captured real-CLI fixtures of one CLI version (see
// claudetest.FixtureDir): captured/ with captured-golden/, hooks/, panes/.
type fixtureSet struct {
	version string
	dir     string // relative to this package
}

// fixtureSets are the committed sets, oldest first. The oldest verified
// version's stays golden-tested beside the pinned one's.
var fixtureSets = []fixtureSet{
	{"2.1.328", "testdata"},
	{"2.1.332", filepath.Join("testdata", "v2.1.332")},
}

func (s fixtureSet) path(parts ...string) string {
	return filepath.Join(append([]string{s.dir}, parts...)...)
}

// TestFixtureSetsAreListed fails when a captured set sits in testdata
// without being listed above (its goldens would never be checked), or a
// listed one lacks a part.
func TestFixtureSetsAreListed(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "v*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !slices.ContainsFunc(fixtureSets, func(s fixtureSet) bool { return s.dir == d }) {
			t.Errorf("%s holds a fixture set that fixtureSets does not list", d)
		}
	}
	for _, s := range fixtureSets {
		for _, part := range []string{"captured", "captured-golden", "hooks", "panes"} {
			if fi, err := os.Stat(s.path(part)); err != nil || !fi.IsDir() {
				t.Errorf("fixture set %s lacks %s", s.version, s.path(part))
			}
		}
	}
}
