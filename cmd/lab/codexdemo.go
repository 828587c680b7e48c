package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/fakecodexapi"
	"lab/internal/netns"
)

// The demo's Codex runs talk to fakecodexapi, lab's scripted Responses
// API. Pointed at a local model the CLI still looks up public host names
// at start, so each run is jailed (netns.Jail): a network namespace of its
// own with only loopback, where 127.0.0.1:demoCodexPort reaches the
// scripted model through a unix socket in the state folder. As root the
// namespace is a plain one; a normal user gets it inside a user namespace
// (where the kernel allows that, as Debian's does). Where neither works,
// the runs are not jailed: the model is then served on a loopback TCP port
// and the CLI's HTTP traffic is pointed at a proxy that is not there, and
// the log says so.

const (
	// demoCodexPort is the scripted model's port inside each jail; every
	// run has its own namespace, so one fixed port serves them all.
	demoCodexPort = 7788
	// demoCodexSocket is the scripted model's unix socket in the state
	// folder: the path stays the same across restarts, so runs adopted
	// after one still reach the model.
	demoCodexSocket = "codex-model.sock"
	// demoCodexAddrFile keeps the unjailed fallback's TCP address.
	demoCodexAddrFile = "demo-codex-model.addr"
	// demoCodexKeyVar holds the demo's API key (the model takes any).
	demoCodexKeyVar = "LAB_DEMO_CODEX_KEY"
	demoCodexKey    = "sk-lab-demo-codex-key"
)

// demoCodexSandbox keeps /tmp and $TMPDIR out of the workspace-write
// sandbox's writable roots, as `-c` overrides on every demo Codex run (so
// a CODEX_HOME seeded by an older demo gets them too). Without them a
// folder under /tmp has a writable parent, and the edit scenario, which
// writes beside the folder to show an approval, wrote without asking.
var demoCodexSandbox = []string{
	"sandbox_workspace_write.exclude_slash_tmp=true",
	"sandbox_workspace_write.exclude_tmpdir_env_var=true",
}

// startCodexDemo serves the scripted model and returns the Codex provider
// of the demo: its own CODEX_HOME (seeded once), the API key in the
// environment, and every run jailed when the machine allows it.
func startCodexDemo(ctx context.Context, c serveConfig, log *slog.Logger) (agent.Provider, func(), error) {
	fake := fakecodexapi.New(fakecodexapi.Options{})
	if c.DemoModels.Codex != nil {
		c.DemoModels.Codex(fake)
	}
	p := codex.New(c.CodexHome)
	p.Env = map[string]string{demoCodexKeyVar: demoCodexKey}
	p.Config = append([]string(nil), demoCodexSandbox...)
	if err := seedDemoCodexHome(c.CodexHome); err != nil {
		return nil, nil, err
	}
	self := c.Self
	if len(self) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, fmt.Errorf("demo: cannot find lab's own binary for jailing Codex runs: %w", err)
		}
		self = []string{exe}
	}
	sock := filepath.Join(c.StateDir, demoCodexSocket)
	jerr := errors.New("turned off (--codex-jail=false)")
	var jail netns.Jail
	if c.CodexJail {
		jail, jerr = netns.ProbeJail(ctx, self, sock, demoCodexPort)
	}
	if jerr == nil {
		stop, err := serveUnix(fake, sock)
		if err != nil {
			return nil, nil, err
		}
		how := "network namespace"
		if jail.User {
			how = "user and network namespace"
		}
		log.Info("demo: Codex runs are jailed with only loopback, talking to the built-in scripted model", "jail", how, "socket", sock)
		return jailed{p, jail}, stop, nil
	}
	// No namespace here: serve on loopback TCP and point the CLI at it.
	if err := startAtSavedAddr(fake, c.StateDir, demoCodexAddrFile, log); err != nil {
		return nil, nil, err
	}
	p.Config = append(p.Config, "model_providers."+codex.ProviderID+".base_url="+quoteTOML(fake.URL()+"/v1"))
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		p.Env[k] = "http://127.0.0.1:9"
	}
	p.Env["NO_PROXY"], p.Env["no_proxy"] = "127.0.0.1,localhost", "127.0.0.1,localhost"
	log.Warn("demo: Codex runs cannot be jailed in a network namespace here, so they run on the host's network: they reach the scripted model on loopback, and their other HTTP traffic goes to a proxy address where nothing listens (nothing else was seen leaving with Codex 0.171.0, but nothing enforces it)",
		"why", jerr.Error(), "model", fake.URL())
	return p, func() { fake.Close() }, nil
}

// seedDemoCodexHome writes the demo's config.toml once: the scripted
// model at the jail's port, the key variable, the notices already seen.
func seedDemoCodexHome(home string) error {
	if _, err := os.Stat(filepath.Join(home, "config.toml")); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("demo codex home: %w", err)
	}
	err := codex.SeedHome(home, codex.HomeConfig{BaseURL: fmt.Sprintf("http://127.0.0.1:%d", demoCodexPort), EnvKey: demoCodexKeyVar})
	if err != nil {
		return fmt.Errorf("demo codex home: %w", err)
	}
	return nil
}

// serveUnix serves h on a fresh unix socket at path (a stale one from an
// earlier run of the demo is replaced), private to the user.
func serveUnix(h http.Handler, path string) (func(), error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("demo model socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("demo model socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("demo model socket: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return func() { srv.Close() }, nil
}

// quoteTOML quotes s as a TOML basic string (a URL: no escapes needed
// beyond quotes and backslashes).
func quoteTOML(s string) string {
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(append(out, '"'))
}

// jailed is a provider whose CLI runs in a netns.Jail.
type jailed struct {
	agent.Provider
	jail netns.Jail
}

// Prepare returns the provider's command, jailed.
func (j jailed) Prepare(ctx context.Context, spec agent.Launch) (agent.Command, error) {
	cmd, err := j.Provider.Prepare(ctx, spec)
	if err != nil {
		return cmd, err
	}
	cmd.Argv = j.jail.Wrap(cmd.Argv)
	return cmd, nil
}
