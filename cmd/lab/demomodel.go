package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"lab/internal/claude"
	"lab/internal/codex"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
	"lab/internal/httpapi"
)

// demoModelAddrFile holds the scripted model's address in a demo's state
// folder. Runs get the model's URL in their environment when they start
// and keep it for life, and they outlive lab: a restarted demo must serve
// the model where the runs it adopts still look for it.
const demoModelAddrFile = "demo-model.addr"

// scriptedModel is a scripted model server (fakeclaudeapi, fakecodexapi).
type scriptedModel interface {
	Start(addr string) error
	URL() string
}

// startAtSavedAddr serves fake on the address saved in stateDir under
// name, or on a fresh loopback port the first time, and saves the address
// it got. When the saved port is taken it falls back to a fresh one and
// says in the log that runs started before cannot reach the model any
// more.
func startAtSavedAddr(fake scriptedModel, stateDir, name string, log *slog.Logger) error {
	file := filepath.Join(stateDir, name)
	saved := ""
	if b, err := os.ReadFile(file); err == nil {
		saved = strings.TrimSpace(string(b))
	}
	if !validLoopbackAddr(saved) {
		saved = ""
	}
	addr := saved
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := fake.Start(addr); err != nil {
		if saved == "" {
			return fmt.Errorf("demo model: %w", err)
		}
		if err := fake.Start("127.0.0.1:0"); err != nil {
			return fmt.Errorf("demo model: %w", err)
		}
		log.Warn("demo: the scripted model's saved address is taken, so it moved; runs started before this restart still call the old address and cannot reach the model (their replies stay 'working' while the CLI retries): stop them and start new ones",
			"saved", saved, "now", fake.URL(), "err", err)
	}
	now := strings.TrimPrefix(fake.URL(), "http://")
	if now != saved {
		if err := os.WriteFile(file, []byte(now+"\n"), 0o600); err != nil {
			log.Warn("demo: cannot save the scripted model's address; after a restart adopted runs may not reach it", "file", file, "err", err)
		}
	}
	return nil
}

// validLoopbackAddr accepts only a loopback host and a numeric port: the
// file is ours, but a hand-edited one must not make the demo listen
// beyond loopback.
func validLoopbackAddr(s string) bool {
	host, port, err := net.SplitHostPort(s)
	if err != nil || port == "" || port == "0" {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// demoScenarios lists the scripted models' scenarios for the web app's
// new-run screen, each with the provider whose model plays it; nil when
// not a demo.
func demoScenarios(demo bool) []httpapi.Scenario {
	if !demo {
		return nil
	}
	var out []httpapi.Scenario
	for _, s := range fakeclaudeapi.Scenarios() {
		out = append(out, httpapi.Scenario{Provider: claude.Name, Keyword: s.Keyword, Summary: s.Summary, PermissionMode: s.Mode})
	}
	for _, s := range fakecodexapi.Scenarios() {
		out = append(out, httpapi.Scenario{Provider: codex.Name, Keyword: s.Keyword, Summary: s.Summary, PermissionMode: s.Mode})
	}
	return out
}
