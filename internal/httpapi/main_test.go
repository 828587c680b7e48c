package httpapi

import (
	"os"
	"testing"

	"lab/internal/store"
)

func TestMain(m *testing.M) {
	// The setup endpoint hashes at the default cost; on a busy two-core
	// machine that is seconds per test. The cost is a parameter of the
	// hash, not of the behaviour under test.
	store.DefaultArgon2Params = cheapArgon2
	os.Exit(m.Run())
}
