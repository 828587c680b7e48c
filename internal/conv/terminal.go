package conv

// TerminalInput is what the operator types into a run's terminal: Text
// typed as keystrokes first (no control characters), then Keys pressed
// one at a time by name (TerminalKeys).
type TerminalInput struct {
	Text string   `json:"text,omitempty"`
	Keys []string `json:"keys,omitempty"`
}

// TerminalKeys are the named keys the terminal view may press: the key
// bar's Esc, Tab, Shift+Tab, arrows, Enter, Ctrl+C and Backspace.
var TerminalKeys = []string{"Escape", "Tab", "BTab", "Up", "Down", "Left", "Right", "Enter", "C-c", "BSpace"}
