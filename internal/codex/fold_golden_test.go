package codex

import (
	"flag"
	"testing"

	"lab/internal/foldkit/foldtest"
)

// updateFlag is the flag that rewrites the fold goldens; failure messages
// name it from here so they cannot drift from the flag.
const updateFlag = "update"

var updateFold = flag.Bool(updateFlag, false, "rewrite the golden files from the current fold")

// foldHarness is how foldtest's shared tests (split, golden, fuzz,
// benchmarks) drive this adapter's Fold.
var foldHarness = foldtest.Harness[*Fold]{New: NewFold, Clone: cloneFold, Diff: foldtest.Differ[*Fold]("ln", "it", "raw")}

func foldAll(b []byte) *Fold { return foldHarness.All(b) }

// foldFixtures lists the hand-written rollouts and the real CLI captures
// (testdata/captured, filled by codextest's capture), each with its golden.
func foldFixtures(t testing.TB) []foldtest.Fixture {
	t.Helper()
	return foldtest.Fixtures(t, 20,
		foldtest.FixtureSet{Name: "fold", Glob: "testdata/fold/*.jsonl", GoldenDir: "testdata/fold"},
		foldtest.FixtureSet{Name: "captured", Glob: "testdata/captured/*.jsonl", GoldenDir: "testdata/captured-golden"},
	)
}

func TestFoldGolden(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			got := foldtest.SnapshotJSON(t, foldtest.SnapshotOf(foldAll(foldtest.ReadFixture(t, fx.Path))))
			foldtest.Golden(t, got, fx.Path, fx.Golden, *updateFold, updateFlag)
		})
	}
}
