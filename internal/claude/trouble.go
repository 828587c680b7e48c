package claude

import (
	"regexp"
	"strings"

	"lab/internal/conv"
)

// While a Messages API request fails, Claude Code retries it with a
// backoff and says so only on its status line, above the input box; the
// transcript gets nothing until the last attempt fails (then an assistant
// line with isApiErrorMessage, which the fold shows as an error). Seen on
// 2.1.328 against a scripted API answering 529, 500 or hanging up:
//
//	✻ 529 Overloaded · retrying in 13s · attempt 6/10
//	  ⎿  If it persists, check your inference gateway (127.0.0.1:33255).
//	✻ 500 Internal server error · retrying in 6s · attempt 5/10
//	✻ Connection dropped (ECONNRESET) · retrying in 3s · attempt 5/10
//
// (After a few 529s in a row the CLI may instead give up early with "API
// Error: Repeated 529 Overloaded errors", depending on the model and
// account; that lands in the transcript like any final API error.)
//
// The leading glyph is the animated spinner (one of ·✢✳✶✻✽*); the agent's
// own prose starts with ● and never matches.
var retryRE = regexp.MustCompile(`^\s*[·✢✳✶✻✽*]\s+(.+? · retrying in \d+s · attempt \d+/\d+)\s*$`)

// hintRE is the "⎿" continuation the CLI prints under some retry lines.
var hintRE = regexp.MustCompile(`^\s*⎿\s+(.+?)\s*$`)

// Retrying reads the pane's retry status line, if any, as a warning: the
// error and the countdown, with the CLI's hint when it gives one. (Escape
// during the retries cancels the request without a trace in the
// transcript or the hooks: the CLI goes back to its input box, which Look
// reports as the prompt, so the live view sees the turn ended.)
func Retrying(capture string) *conv.Lifecycle {
	lines := strings.Split(capture, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		m := retryRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		// The TUI pads with no-break spaces, which RE2's \s does not match.
		text := "API error: " + oneLine(m[1])
		if i+1 < len(lines) {
			if h := hintRE.FindStringSubmatch(lines[i+1]); h != nil {
				text += ". " + oneLine(h[1])
			}
		}
		return &conv.Lifecycle{Level: conv.LevelWarning, Text: text}
	}
	return nil
}

// oneLine folds every run of white space, no-break spaces included.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
