package main

import (
	"os"
	"testing"
)

// asLab makes the test binary act as lab itself when a test's server runs
// it again (the demo's Codex runs call `lab jail`): selfArgv names it so.
const asLab = "LAB_TEST_RUN_AS_LAB"

func TestMain(m *testing.M) {
	if os.Getenv(asLab) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// selfArgv is how a test's server runs lab again: this test binary.
func selfArgv(t testing.TB) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"env", asLab + "=1", exe}
}
