package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lab/internal/hookspool"
)

// Hook event names lab listens to (the CLI's hook_event_name values): a
// per-CLI table of the events this CLI fires, the shared names hookspool's.
const (
	HookSessionStart     = hookspool.SessionStart
	HookUserPromptSubmit = hookspool.UserPromptSubmit
	HookPreToolUse       = hookspool.PreToolUse
	HookPostToolUse      = hookspool.PostToolUse
	HookNotification     = "Notification"
	HookStop             = hookspool.Stop
	// HookPermissionRequest fires when the CLI is about to ask the
	// operator to allow a tool call (also for the dialog tools).
	HookPermissionRequest = hookspool.PermissionRequest
)

// HookEvents are the events a run's settings file hooks, in the order the
// file lists them.
var HookEvents = []string{HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPostToolUse, HookNotification, HookStop, HookPermissionRequest}

// hookTimeoutSeconds bounds a hook; the CLI kills it after this. The
// command only copies stdin to a file, so it takes milliseconds.
const hookTimeoutSeconds = 10

// hookSettings is the shape of the run's settings file: its hooks, and
// the folders lab lets the agent read without asking.
type hookSettings struct {
	Hooks       map[string][]hookMatcher `json:"hooks"`
	Permissions *permissionRules         `json:"permissions,omitempty"`
}

type permissionRules struct {
	Allow []string `json:"allow"`
}

// readRule is the permission rule that lets the agent read everything
// under the absolute folder dir ("//" starts an absolute path in a rule),
// or "" when dir holds a character a rule reads as a pattern: the agent
// then asks, as for any folder outside its own.
func readRule(dir string) string {
	if !filepath.IsAbs(dir) || strings.ContainsAny(dir, "*?[]{}()!\\") {
		return ""
	}
	return "Read(/" + strings.TrimRight(dir, "/") + "/**)"
}

type hookMatcher struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// HookSettings returns a settings file (for `claude --settings`) whose
// hooks spool every event of HookEvents into spoolDir and which lets the
// agent read the readable folders (a run's uploads) without a permission
// prompt. The CLI merges it with the operator's own settings, so their
// hooks and rules keep applying too. (A folder given with --add-dir
// instead stops 2.1.332 at start-up, asking whether to trust it.)
func HookSettings(spoolDir string, readable ...string) ([]byte, error) {
	if !filepath.IsAbs(spoolDir) {
		return nil, fmt.Errorf("hook spool dir %q is not absolute", spoolDir)
	}
	s := hookSettings{Hooks: map[string][]hookMatcher{}}
	for _, ev := range HookEvents {
		// Every tool: a permission request names its call only by tool
		// and input, so the PreToolUse of every call is spooled to find
		// its tool_use id.
		m := hookMatcher{Hooks: []hookCommand{{Type: "command", Command: hookspool.Command(spoolDir, ev), Timeout: hookTimeoutSeconds}}}
		s.Hooks[ev] = []hookMatcher{m}
	}
	for _, dir := range readable {
		if r := readRule(dir); r != "" {
			if s.Permissions == nil {
				s.Permissions = &permissionRules{}
			}
			s.Permissions.Allow = append(s.Permissions.Allow, r)
		}
	}
	return json.MarshalIndent(s, "", "  ")
}

// WriteHookSettings writes HookSettings(spoolDir, readable...) to path
// atomically and creates spoolDir.
func WriteHookSettings(path, spoolDir string, readable ...string) error {
	b, err := HookSettings(spoolDir, readable...)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(spoolDir, 0o700); err != nil {
		return fmt.Errorf("spool dir: %w", err)
	}
	tmp, err := homeWriteTemp(filepath.Dir(path), ".settings-*", append(b, '\n'), 0o600)
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}
