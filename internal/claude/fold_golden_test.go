package claude

import (
	"flag"
	"path/filepath"
	"testing"

	"lab/internal/foldkit/foldtest"
)

// updateFlag is the flag that rewrites the fold goldens; failure messages
// name it from here so they cannot drift from the flag.
const updateFlag = "update"

var updateFold = flag.Bool(updateFlag, false, "rewrite the golden files from the current fold")

// foldHarness is how foldtest's shared tests (split, golden, fuzz,
// benchmarks) drive this adapter's Fold.
var foldHarness = foldtest.Harness[*Fold]{New: NewFold, Clone: cloneFold, Diff: foldtest.Differ[*Fold]("ln", "msg", "blk", "raw"), Backpatch: approvalModeLearned}

func foldAll(b []byte) *Fold { return foldHarness.All(b) }

// foldFixtures lists the hand-written transcripts and the real CLI captures
// of every fixture set (captured/, filled by claudetest's capture
// generator), each with its golden.
func foldFixtures(t testing.TB) []foldtest.Fixture {
	t.Helper()
	sets := []foldtest.FixtureSet{{Name: "testdata/fold", Glob: "testdata/fold/*.jsonl", GoldenDir: "testdata/fold"}}
	for _, fs := range fixtureSets {
		sets = append(sets, foldtest.FixtureSet{Name: filepath.ToSlash(fs.path("captured")), Glob: fs.path("captured", "*.jsonl"), GoldenDir: fs.path("captured-golden")})
	}
	return foldtest.Fixtures(t, 10, sets...)
}

func TestFoldGolden(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			got := foldtest.SnapshotJSON(t, foldtest.SnapshotOf(foldAll(foldtest.ReadFixture(t, fx.Path))))
			foldtest.Golden(t, got, fx.Path, fx.Golden, *updateFold, updateFlag)
		})
	}
}
