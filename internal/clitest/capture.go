package clitest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// SessionFile polls the spool (refresh returns the transcript path it
// knows, "" before the SessionStart) until the CLI has named its session
// file, and returns the path.
func SessionFile(t testing.TB, refresh func() string) string {
	t.Helper()
	var path string
	Poll(t, 60*time.Second, "SessionStart in the spool", func() bool {
		path = refresh()
		return path != ""
	})
	return path
}

// FinishFile waits until done says the session file at path is complete,
// lets the trailing bookkeeping lines and hooks land, and returns the
// file's final bytes.
func FinishFile(t testing.TB, path, what string, done func(string) bool) []byte {
	t.Helper()
	Poll(t, 60*time.Second, what, func() bool {
		body, _ := os.ReadFile(path)
		return done(string(body))
	})
	time.Sleep(time.Second)
	body, _ := os.ReadFile(path)
	return body
}

// Capture is one conversation captured from a real CLI, to save as a
// fixture.
type Capture struct {
	Name     string
	File     string   // what the session file is called in errors: "transcript", "rollout"
	Body     []byte   // the session file
	Pane     string   // the picker's pane, "" when none was waited for
	Expect   []string // substrings the session file must hold: the facts the fixture pins
	SpoolDir string
	// Norm replaces the capture's random temp paths with fixed ones, so
	// re-captures diff cleanly.
	Norm func(string) string
}

// Save checks c's expectations and writes it under out: the session file
// as <name>.jsonl, the pane as <name>.pane.txt, and the hook payloads in
// the order the hooks ran as <name>.hooks.jsonl, all normalized. It
// returns the payload files' names in that order.
func (c Capture) Save(t testing.TB, out string) []string {
	t.Helper()
	text := c.Norm(string(c.Body))
	for _, want := range c.Expect {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %s", c.File, want)
		}
	}
	WriteText(t, filepath.Join(out, c.Name+".jsonl"), text)
	if c.Pane != "" {
		WriteText(t, filepath.Join(out, c.Name+".pane.txt"), c.Norm(c.Pane))
	}
	ents, _ := os.ReadDir(c.SpoolDir)
	var names []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Slice(names, func(i, j int) bool { return spoolOrder(names[i]) < spoolOrder(names[j]) })
	var hooks bytes.Buffer
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(c.SpoolDir, n))
		hooks.WriteString(c.Norm(string(bytes.TrimSpace(b))))
		hooks.WriteByte('\n')
	}
	WriteText(t, filepath.Join(out, c.Name+".hooks.jsonl"), hooks.String())
	return names
}

// spoolOrder sorts spool names (<event>.<nanos>.<pid>.json) by their time
// field.
func spoolOrder(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 {
		return name
	}
	return parts[1] + "." + parts[2] + "." + parts[0]
}
