package codex

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Hook event names lab listens to (the CLI's hook_event_name values). Codex
// has no Notification event; PermissionRequest fires when an approval
// prompt is drawn.
const (
	HookSessionStart      = "SessionStart"
	HookUserPromptSubmit  = "UserPromptSubmit"
	HookPreToolUse        = "PreToolUse"
	HookPermissionRequest = "PermissionRequest"
	HookPostToolUse       = "PostToolUse"
	HookStop              = "Stop"
)

// HookEvents are the events a run's hook flags spool, in order.
var HookEvents = []string{HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPermissionRequest, HookPostToolUse, HookStop}

// hookTimeoutSeconds bounds a hook; the CLI kills it after this. The
// command only copies stdin to a file, so it takes milliseconds.
const hookTimeoutSeconds = 10

// HookCommand is the /bin/sh one-liner that spools one event: it copies
// its stdin (the event JSON) to a dot-temp file in spoolDir and renames it
// to <event>.<unix nanos>.<pid>.json, so a reader never sees half a file.
// It prints nothing (the CLI feeds some hooks' stdout to the model), never
// waits on anything but its stdin, and always exits 0 so a missing spool
// dir can never fail or block a tool. It is the same command lab gives
// Claude Code: both CLIs run hooks under /bin/sh with the event on stdin.
func HookCommand(spoolDir, event string) string {
	d := shellQuote(spoolDir)
	return fmt.Sprintf(`{ d=%s; n=$(date +%%s%%N); t="$d/.%s.$n.$$.tmp"; cat >"$t" && mv -f "$t" "$d/%s.$n.$$.json"; } >/dev/null 2>&1; exit 0`, d, event, event)
}

// shellQuote quotes s for /bin/sh as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

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
			ev, tomlString("command"), tomlString(HookCommand(spoolDir, ev)), hookTimeoutSeconds))
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
