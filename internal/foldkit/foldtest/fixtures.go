package foldtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FixtureSet is a folder of fold fixtures: the files Glob matches, their
// goldens in GoldenDir, their test names under Name.
type FixtureSet struct {
	Name, Glob, GoldenDir string
}

// Fixture is one transcript with its golden file.
type Fixture struct {
	Name, Path, Golden string
}

// Fixtures lists the fixtures of sets (the hook event logs captured
// beside the transcripts are not fixtures), failing when there are fewer
// than least: a glob gone wrong must not pass by testing nothing.
func Fixtures(t testing.TB, least int, sets ...FixtureSet) []Fixture {
	t.Helper()
	var out []Fixture
	for _, set := range sets {
		paths, err := filepath.Glob(set.Glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, ".hooks.jsonl") {
				continue
			}
			name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
			out = append(out, Fixture{
				Name:   set.Name + "/" + name,
				Path:   p,
				Golden: filepath.Join(set.GoldenDir, name+".golden.json"),
			})
		}
	}
	if len(out) < least {
		t.Fatalf("found %d fold fixtures; want the hand-written set at least (%d)", len(out), least)
	}
	return out
}

// ReadFixture reads a fixture's bytes.
func ReadFixture(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Golden compares got, the snapshot of fixture source, with the golden
// file, or rewrites the golden when update is set; flag names the flag
// that does (each adapter's test binary defines its own).
func Golden(t testing.TB, got []byte, source, golden string, update bool, flag string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestFoldGolden -%s to create it)", err, flag)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("fold of %s differs from %s (rerun with -%s after checking the change):\n%s",
			source, golden, flag, FirstDiff(string(got), string(want)))
	}
}
