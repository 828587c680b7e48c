package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"lab/internal/hookspool"
)

// Hook event names lab listens to (the CLI's hook_event_name values): a
// per-CLI table of the events this CLI fires, the names hookspool's. Codex
// has no Notification event; PermissionRequest fires when an approval
// prompt is drawn.
const (
	HookSessionStart      = hookspool.SessionStart
	HookUserPromptSubmit  = hookspool.UserPromptSubmit
	HookPreToolUse        = hookspool.PreToolUse
	HookPermissionRequest = hookspool.PermissionRequest
	HookPostToolUse       = hookspool.PostToolUse
	HookStop              = hookspool.Stop
)

// HookEvents are the events a run's hook flags spool, in order.
var HookEvents = []string{HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPermissionRequest, HookPostToolUse, HookStop}

// hookTimeoutSeconds bounds a hook; the CLI kills it after this. The
// command only copies stdin to a file, so it takes milliseconds.
const hookTimeoutSeconds = 10

// HookArgs returns the command-line flags that install the run's hooks:
// one `-c hooks.<Event>=[…]` per event, spooling into spoolDir, and the
// flag that runs them without a trust review. Flags, not a hooks.json:
// the run shares the operator's CODEX_HOME, which lab must not edit, and
// session-flag hooks need no file. Hooks from flags are untrusted until
// reviewed in the TUI (a review screen at start), hence
// --dangerously-bypass-hook-trust; it also runs the operator's own enabled
// hooks unreviewed for that process.
func HookArgs(spoolDir string) ([]string, error) {
	if !filepath.IsAbs(spoolDir) {
		return nil, fmt.Errorf("hook spool dir %q is not absolute", spoolDir)
	}
	var args []string
	for _, ev := range HookEvents {
		args = append(args, "-c", fmt.Sprintf("hooks.%s=[{hooks=[{type=%s,command=%s,timeout=%d}]}]",
			ev, tomlString("command"), tomlString(hookspool.Command(spoolDir, ev)), hookTimeoutSeconds))
	}
	return append(args, "--dangerously-bypass-hook-trust"), nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u` + fmt.Sprintf("%04X", r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
