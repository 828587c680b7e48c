package runs

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"lab/internal/conv"
)

// lockedBuffer collects log output written from any goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// stubVersion writes a stand-in claude reporting version v, at a path of
// its own (versions are cached per binary file).
func stubVersion(t *testing.T, f *fixture, name, v string) string {
	t.Helper()
	bin := filepath.Join(filepath.Dir(f.work), name)
	stub := strings.Replace(stubCLI, "2.1.328 (Claude Code)", v+" (Claude Code)", 1)
	if err := os.WriteFile(bin, []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

const unverifiedWarning = "not verified with lab"

// TestUnverifiedCLIIsFlaggedAndLoggedOnce starts runs on a CLI outside the
// verified range: each run says so, the log warns once for the binary, a
// verified binary never warns, and a binary upgraded in place is noted
// again.
func TestUnverifiedCLIIsFlaggedAndLoggedOnce(t *testing.T) {
	f := newFixture(t, "")
	var logs lockedBuffer
	f.cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	f.cfg.Agents = claudeAgents(stubVersion(t, f, "claude-new", "2.9.0"))
	f.restart()
	ctx := context.Background()

	if err := f.svc.CheckCLI(ctx); err != nil {
		t.Fatalf("CheckCLI: %v", err)
	}
	for i := 0; i < 2; i++ {
		run := f.start(conv.StartRequest{Prompt: "hi"})
		if run.CLIVersion != "2.9.0" || run.CLIVerified {
			t.Fatalf("got version %q verified %v; want 2.9.0 unverified", run.CLIVersion, run.CLIVerified)
		}
	}
	if n := strings.Count(logs.String(), unverifiedWarning); n != 1 {
		t.Fatalf("got %d unverified warnings; want 1 for one binary:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "cli=2.9.0") || !strings.Contains(logs.String(), "bin="+f.cfg.Agents[0].Bin) {
		t.Errorf("the warning does not name the version and binary:\n%s", logs.String())
	}

	// The same binary, now another unverified version: noted again.
	stubVersion(t, f, "claude-new", "2.9.10")
	if run := f.start(conv.StartRequest{Prompt: "hi"}); run.CLIVersion != "2.9.10" || run.CLIVerified {
		t.Fatalf("got version %q verified %v; want 2.9.10 unverified", run.CLIVersion, run.CLIVerified)
	}
	if n := strings.Count(logs.String(), unverifiedWarning); n != 2 {
		t.Fatalf("got %d unverified warnings; want 2 after the in-place upgrade:\n%s", n, logs.String())
	}

	// A restarted lab adopting the live runs warns once more: it is a new
	// process whose operator has not seen the warning.
	f.restart()
	if _, err := f.svc.Adopt(ctx); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), unverifiedWarning); n != 4 {
		t.Fatalf("got %d unverified warnings; want 4 after adopting runs of two versions:\n%s", n, logs.String())
	}
	runs, _ := f.svc.List(ctx)
	for _, r := range runs {
		if r.CLIVerified {
			t.Errorf("adopted run %s on %s is marked verified", r.ID, r.CLIVersion)
		}
	}
}

func TestVerifiedCLIDoesNotWarn(t *testing.T) {
	f := newFixture(t, "")
	var logs lockedBuffer
	f.cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	f.restart()
	run := f.start(conv.StartRequest{Prompt: "hi"})
	if run.CLIVersion != "2.1.328" || !run.CLIVerified {
		t.Fatalf("got version %q verified %v; want 2.1.328 verified", run.CLIVersion, run.CLIVerified)
	}
	if strings.Contains(logs.String(), unverifiedWarning) {
		t.Fatalf("a verified CLI was warned about:\n%s", logs.String())
	}
}

func TestCheckCLIWithoutACLI(t *testing.T) {
	f := newFixture(t, "")
	f.cfg.Agents = claudeAgents(filepath.Join(f.work, "no-claude"))
	f.restart()
	if err := f.svc.CheckCLI(context.Background()); err == nil || !strings.Contains(err.Error(), "Claude Code") {
		t.Fatalf("CheckCLI got %v; want an error naming the CLI", err)
	}
}
