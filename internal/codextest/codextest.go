// Package codextest is the harness for tests that drive the real Codex
// CLI: it finds the pinned binary, builds an isolated HOME and CODEX_HOME
// that skip the first-run screens, starts the scripted model
// (fakecodexapi) and a private tmux server, and spawns the CLI in a pane
// sized like a run's. No test using it ever touches the machine's own
// ~/.codex or tmux server.
//
// The CLI runs in a private network namespace with loopback only (package
// netns): even pointed at a local model it looks up public host names at
// start. The scripted model is served by the test process itself on a
// listener opened inside that namespace, so the CLI reaches it at
// 127.0.0.1 while nothing else is reachable; each pane's command is
// prefixed with nsenter to join the namespace.
package codextest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/clitest"
	"lab/internal/codex"
	"lab/internal/fakecodexapi"
	"lab/internal/netns"
	"lab/internal/tmux"
)

// Version is the pinned CLI version the tests expect.
const Version = codex.PinnedVersion

// EnvKey names the environment variable the seeded provider reads its API
// key from; APIKey is its value (the scripted model accepts anything).
const (
	EnvKey = "LAB_CODEX_API_KEY"
	APIKey = "sk-lab-codex-test-000000000000"
)

// relBin is where scripts/install-codex.sh puts the binary, relative to the
// module root.
var relBin = filepath.Join("tools", "codex-"+Version, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")

// CLI returns the path of the real CLI: $LAB_CODEX_BIN, else the pinned
// install under the module root. A missing binary fails the test (never
// skips it), saying how to install it.
func CLI(t testing.TB) string { return clitest.MustBin(t, "codextest", FindCLI) }

// FindCLI is CLI without a test: the binary path or an error that says how
// to install it.
func FindCLI() (string, error) {
	return clitest.FindBin("LAB_CODEX_BIN", relBin, func(path string) string {
		return "the Codex CLI " + Version + " is not installed at " + path + ": run scripts/install-codex.sh, or point LAB_CODEX_BIN at it"
	})
}

// The pieces every real-CLI harness shares (see clitest), under the names
// the tests that use this harness know them by.
var (
	ModuleRoot   = clitest.ModuleRoot
	ShortTempDir = clitest.ShortTempDir
	Tmux         = clitest.Tmux
	Poll         = clitest.Poll
)

// Rig is one CLI test setup: the scripted model inside a private network
// namespace, an isolated HOME and CODEX_HOME, a trusted working directory
// and a private tmux server.
type Rig struct {
	clitest.Term
	Bin       string
	API       *fakecodexapi.Server
	NS        *netns.NS
	Home      string // HOME: empty, so the shell the CLI runs reads no profile of the machine's
	CodexHome string // CODEX_HOME, seeded by codex.SeedHome
	Work      string // trusted, empty at start
	Outside   string // Work's parent: outside the workspace (the edit scenario writes here)
	Env       map[string]string

	t testing.TB
}

// NewRig builds a Rig. opts tune the scripted model.
func NewRig(t testing.TB, opts fakecodexapi.Options) *Rig {
	t.Helper()
	r := &Rig{Bin: CLI(t), t: t}
	ns, err := netns.New()
	if err != nil {
		t.Fatalf("codextest: %v", err)
	}
	t.Cleanup(func() { ns.Close() })
	r.NS = ns
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("codextest: %v", err)
	}
	r.API = fakecodexapi.New(opts)
	if err := r.API.Serve(ln); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.API.Close() })

	r.Outside = ShortTempDir(t, "labwork")
	r.Work = filepath.Join(r.Outside, "work")
	base := ShortTempDir(t, "labhome")
	r.Home = filepath.Join(base, "home")
	r.CodexHome = filepath.Join(base, "codex")
	for _, d := range []string{r.Work, r.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	err = codex.SeedHome(r.CodexHome, codex.HomeConfig{BaseURL: r.API.URL(), EnvKey: EnvKey, Trusted: []string{r.Work}, ExcludeTmp: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Term = clitest.NewTerm(t, Tmux(t), 150*time.Millisecond)
	r.Env = map[string]string{"HOME": r.Home, "CODEX_HOME": r.CodexHome, EnvKey: APIKey}
	return r
}

// Spawn starts the CLI as o describes (o.Bin is filled in) in a new 120x45
// tmux session named name, in r.Work, inside the rig's network namespace.
func (r *Rig) Spawn(name string, o codex.SpawnOptions) {
	r.t.Helper()
	o.Bin = r.Bin
	var err error
	// A server whose last session just ended exits on its own; a command
	// that reaches it in that instant fails with ErrNoServer, and the next
	// one starts a fresh server.
	for attempt := 0; attempt < 20; attempt++ {
		err = r.Tmux.NewSession(context.Background(), tmux.SessionOptions{
			Name: name, Dir: r.Work, Width: 120, Height: 45, Env: r.Env,
			Argv: r.NS.Wrap(codex.SpawnArgv(o)),
		})
		if !errors.Is(err, tmux.ErrNoServer) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		r.t.Fatalf("codextest: spawn: %v", err)
	}
}

// Sessions returns the rollouts under the rig's CODEX_HOME.
func (r *Rig) Sessions() []string {
	m, _ := filepath.Glob(filepath.Join(codex.SessionsDir(r.CodexHome), "*", "*", "*", "rollout-*.jsonl"))
	return m
}

// WaitRequest waits for a request to the scripted model matching match.
func (r *Rig) WaitRequest(timeout time.Duration, what string, match func(fakecodexapi.Request) bool) fakecodexapi.Request {
	r.t.Helper()
	return clitest.WaitRequest(r.t, &r.API.Base, timeout, what, match)
}

// PickerGrace is how long a screen must have shown before the player
// presses a key that acts on it, as lab's chat does (a CLI may drop an
// Enter that arrives the instant a picker appears).
const PickerGrace = 300 * time.Millisecond

// Play plays a recipe into target the way lab's chat does: it polls each
// checkpoint until the pane passes it (failing the test after timeout),
// waits out the picker grace (counted from the checkpoint that first saw
// the screen: nothing here saw the picker before the answer) before keys
// that act, and sends the keys between two checkpoints in one call, the
// committing key alone. It stops after the committing key.
func (r *Rig) Play(target string, steps []agent.Step, timeout time.Duration) {
	r.t.Helper()
	seen := map[string]time.Time{}
	var current string
	grace := func(acts bool) {
		if wait := PickerGrace - time.Since(seen[current]); acts && wait > 0 {
			time.Sleep(wait)
		}
	}
	for i := 0; i < len(steps); {
		s := steps[i]
		switch s.Kind {
		case agent.StepExpect:
			var lastErr error
			deadline := time.Now().Add(timeout)
			for {
				id, err := s.Check.Match(r.Pane(target))
				if _, ok := seen[id]; !ok {
					seen[id] = time.Now()
				}
				if err == nil {
					current = id
					break
				}
				lastErr = err
				if time.Now().After(deadline) {
					r.t.Fatalf("codextest: step %d: %v; pane:\n%s", i, lastErr, r.Pane(target))
				}
				time.Sleep(50 * time.Millisecond)
			}
			i++
		case agent.StepPaste:
			grace(s.Acts)
			if err := r.Tmux.Paste(context.Background(), target, s.Text); err != nil {
				r.t.Fatalf("codextest: paste: %v", err)
			}
			i++
		default:
			n, acts := 1, s.Acts
			for !s.Commit && i+n < len(steps) && steps[i+n].Kind == agent.StepKey && !steps[i+n].Commit {
				acts = acts || steps[i+n].Acts
				n++
			}
			keys := make([]string, n)
			for k := range keys {
				keys[k] = steps[i+k].Key
			}
			grace(acts)
			if err := r.Tmux.SendKeys(context.Background(), target, keys...); err != nil {
				r.t.Fatalf("codextest: keys %v: %v", keys, err)
			}
			if s.Commit {
				return
			}
			i += n
		}
	}
	r.t.Fatalf("codextest: recipe has no committing key")
}

// Reply types text at the CLI's prompt and submits it, checking the input
// box as lab's chat does: empty before the paste, holding exactly text
// before Enter.
func (r *Rig) Reply(target, text string, timeout time.Duration) {
	r.t.Helper()
	r.WaitPaneFunc(target, "an empty input box", timeout, func(p string) bool {
		b, ok := codex.ParsePrompt(p)
		return ok && b.Empty()
	})
	r.Paste(target, text)
	r.WaitPaneFunc(target, "the input box holding the reply", timeout, func(p string) bool {
		b, ok := codex.ParsePrompt(p)
		return ok && b.Holds(text)
	})
	r.Keys(target, "Enter")
}

// EnterPlanMode switches the CLI in target to Plan mode with shift+tab.
// The TUI drops keys sent in the first instants after its input box
// appears, and shift+tab cycles modes, so it presses once, waits for the
// mode to show, and presses again only if the first press was dropped.
func EnterPlanMode(t testing.TB, r *Rig, target string) {
	t.Helper()
	for attempt := 0; attempt < 10; attempt++ {
		r.Keys(target, "BTab")
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(r.Pane(target), "Plan mode") {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Fatalf("codextest: the CLI never entered Plan mode; pane:\n%s", r.Pane(target))
}
