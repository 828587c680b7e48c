// Package hookspool is the hook spool both agent CLIs' adapters use. Claude
// Code and Codex run hooks the same way (a /bin/sh command with the event's
// JSON on stdin) and send the same fields, so lab gives both the same
// command: it copies each event into the run's spool folder as its own
// file. This package holds that command, the reader of such a folder
// (files named by event, start time and pid, parsed once each, ordered,
// removed by name, stale temp files swept), and the reader's state common
// to both CLIs:
//
//	command.go  the hook command
//	dir.go      the folder: names, order, loading, removal, compaction
//	event.go    the payload fields both CLIs send (Event), parsed once
//	spool.go    Spool: the locked, cached reader with retired calls,
//	            compaction past a bound and the permission dialog cache
//	session.go  the current session, its tool calls walked in order,
//	            pending dialogs, last prompt and turn end (Current, Walk)
//
// What the events mean beyond that is each adapter's own: its spool.go
// folds them (which tools are dialogs, how a permission request finds
// its call, which files the state keeps).
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
