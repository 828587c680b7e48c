// Package hookspool is the hook spool both agent CLIs' adapters use. Claude
// Code and Codex run hooks the same way (a /bin/sh command with the event's
// JSON on stdin), so lab gives both the same command: it copies each event
// into the run's spool folder as its own file. This package holds that
// command and the reader of such a folder: files named by event, start
// time and pid, parsed once each (a spooled file never changes once
// renamed into place), ordered, removed by name, and stale temp files
// swept. What the events mean is each adapter's own (its spool.go folds
// them into the run's state).
package hookspool

import (
	"fmt"
	"strings"
)

// Command is the /bin/sh one-liner that spools one event: it copies its
// stdin (the event JSON) to a dot-temp file in dir and renames it to
// <event>.<unix nanos>.<pid>.json, so a reader never sees half a file. It
// prints nothing (a CLI feeds some hooks' stdout to the model), never
// waits on anything but its stdin, and always exits 0 so a missing spool
// dir can never fail or block a tool.
func Command(dir, event string) string {
	d := shellQuote(dir)
	return fmt.Sprintf(`{ d=%s; n=$(date +%%s%%N); t="$d/.%s.$n.$$.tmp"; cat >"$t" && mv -f "$t" "$d/%s.$n.$$.json"; } >/dev/null 2>&1; exit 0`, d, event, event)
}

// shellQuote quotes s for /bin/sh as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
