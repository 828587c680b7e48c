package codex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The pinned binary reports the version lab pins (when it is installed;
// the codextest harness fails loudly when it is not).
func TestCLIVersionOfThePinnedBinary(t *testing.T) {
	bin := filepath.Join("..", "..", "tools", "codex-0.171.0", "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	if p := os.Getenv("LAB_CODEX_BIN"); p != "" {
		bin = p
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the pinned CLI is not installed (scripts/install-codex.sh): %v", err)
	}
	v, err := CLIVersion(context.Background(), bin)
	if err != nil || v != "0.171.0" {
		t.Fatalf("CLIVersion = %q, %v; want 0.171.0", v, err)
	}
}
