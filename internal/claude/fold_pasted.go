package claude

import (
	"regexp"
	"strings"
)

// The CLI records a pasted prompt (how lab sends replies) wrapped in
// <pasted_content id="…"> … </pasted_content id="…"> so the model can tell
// pasted text from typed text; the chat shows what the operator sent.
var foldPastedTag = regexp.MustCompile(`</?pasted_content(?: id="[^"]*")?>`)

// foldUnwrapPasted removes the paste markers from a prompt.
func foldUnwrapPasted(s string) string {
	if !strings.Contains(s, "pasted_content") {
		return s
	}
	return foldPastedTag.ReplaceAllString(s, "")
}
