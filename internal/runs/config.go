package runs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
	"lab/internal/store"
	"lab/internal/uploads"
)

// Config says where runs live and how the CLI is started. Every field is
// injectable so tests (and `lab demo`) can point runs at a scripted model,
// an isolated HOME and a private tmux socket.
type Config struct {
	// StateDir holds the per-run files (runs/<id>/settings.json and
	// spool/). Default: $XDG_STATE_HOME/lab, else <Home>/.local/state/lab.
	StateDir string
	// Agents are the agent CLIs runs may use, each with its binary; the
	// first is the default for a request that names no provider.
	// Required.
	Agents []Agent
	// ExtraEnv is added to the CLI's environment (e.g. ANTHROPIC_BASE_URL).
	// A HOME here also becomes the CLI's home for trust and the registry.
	ExtraEnv map[string]string
	// TmuxSocket is lab's private tmux socket. Default <StateDir>/tmux.sock.
	TmuxSocket string
	// SeedTrust has each run's cwd trusted by its CLI before it starts
	// (the provider's Prepare: an entry in the CLI's config, or a session
	// flag), so the run does not stop at the trust screen. DefaultConfig
	// turns it on.
	SeedTrust bool
	// Home is the operator's home: where the CLIs' own config and
	// session registries live (unless ExtraEnv sets HOME). Default: the
	// current user's home.
	Home string
	// UserHome is what a leading "~" in a run's folder stands for: the
	// operator's own home, even when the CLI gets another HOME (the demo).
	// Default: Home.
	UserHome string
	// Width and Height size the run's pane. Default 120x45, the geometry
	// the answer recipes were measured in.
	Width, Height int
	// OnChange, when set, is called (without locks held) with the id of a
	// run that started, stopped or was found ended.
	OnChange func(runID string)
	// BeforeSpawn, when set, is called with a new run's record once it is
	// recorded and before its CLI starts: the changes layer snapshots the
	// run's folder there, before the agent can touch it. It cannot fail
	// the start.
	BeforeSpawn func(ctx context.Context, rec store.RunRecord)
	// Uploads holds the files staged for runs about to start; a start
	// request's uploads move from it into the run's folder. nil: starts
	// take no uploads.
	Uploads *uploads.Store
	Logger  *slog.Logger
	Now     func() time.Time
}

// DefaultConfig is the configuration for the current user with trust
// seeding on.
func DefaultConfig() Config { return Config{SeedTrust: true} }

// maxSocketPath keeps the socket within sockaddr_un's 108 bytes.
const maxSocketPath = 100

// withDefaults fills the zero fields.
func (c Config) withDefaults() (Config, error) {
	if c.Home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return c, fmt.Errorf("runs: no home directory: %w", err)
		}
		c.Home = h
	}
	if c.UserHome == "" {
		c.UserHome = c.Home
	}
	if c.StateDir == "" {
		if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
			c.StateDir = filepath.Join(x, "lab")
		} else {
			c.StateDir = filepath.Join(c.Home, ".local", "state", "lab")
		}
	}
	if !filepath.IsAbs(c.StateDir) {
		return c, fmt.Errorf("runs: state dir %q is not absolute", c.StateDir)
	}
	if len(c.Agents) == 0 {
		return c, errors.New("runs: no agent CLI is configured")
	}
	if c.TmuxSocket == "" {
		c.TmuxSocket = filepath.Join(c.StateDir, "tmux.sock")
	}
	if len(c.TmuxSocket) > maxSocketPath {
		return c, errors.New("runs: tmux socket path " + c.TmuxSocket + " is too long for a unix socket; configure a shorter one")
	}
	if c.Width <= 0 {
		c.Width = 120
	}
	if c.Height <= 0 {
		c.Height = 45
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}

// Agent is one agent CLI runs may use: its adapter and its binary (a
// path, or a name looked up in PATH; "" for the provider's default name).
type Agent struct {
	Provider agent.Provider
	Bin      string
}

// agentFor returns the configured agent named provider ("" for the
// default); EInvalid when there is none.
func (c Config) agentFor(provider string) (Agent, error) {
	if provider == "" {
		return c.Agents[0], nil
	}
	var names []string
	for _, a := range c.Agents {
		name := a.Provider.Info().Name
		if name == provider {
			return a, nil
		}
		names = append(names, name)
	}
	return Agent{}, conv.Errorf(conv.EInvalid, "unknown provider %q; this lab runs %s", provider, strings.Join(names, ", "))
}

// cliHome is the HOME the CLI runs with.
func (c Config) cliHome() string {
	if h := c.ExtraEnv["HOME"]; h != "" {
		return h
	}
	return c.Home
}
