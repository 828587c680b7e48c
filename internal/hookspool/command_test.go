package hookspool

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runHook runs the command for event the way a CLI does: /bin/sh -c with
// the payload on stdin.
func runHook(t *testing.T, dir, event, payload string) (string, error) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", Command(dir, event))
	c.Stdin = strings.NewReader(payload)
	out, err := c.CombinedOutput()
	return string(out), err
}

func TestCommandSpoolsStdinAtomically(t *testing.T) {
	// A quote and a space in the path prove the quoting.
	dir := filepath.Join(t.TempDir(), "it's a spool")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s1","hook_event_name":"PreToolUse","tool_use_id":"toolu_1","tool_input":{"x":"it's \"quoted\"\n"}}`
	for i := 0; i < 3; i++ {
		out, err := runHook(t, dir, "PreToolUse", payload)
		if err != nil || out != "" {
			t.Fatalf("got output %q, err %v; want silence and exit 0", out, err)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 3 {
		t.Fatalf("got %d files; want 3 (unique names per run)", len(ents))
	}
	for _, e := range ents {
		k, ok := ParseName(e.Name())
		if !ok || k.Event != "PreToolUse" || k.Nanos == 0 || k.PID == 0 {
			t.Fatalf("got file %q (parsed %+v, %v); want PreToolUse.<nanos>.<pid>.json", e.Name(), k, ok)
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if string(b) != payload {
			t.Fatalf("got content %q; want the payload verbatim", b)
		}
	}
}

func TestCommandNeverFails(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	out, err := runHook(t, missing, "Stop", `{"a":1}`)
	if err != nil || out != "" {
		t.Fatalf("got output %q, err %v with a missing spool dir; want silence and exit 0", out, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("the hook created %s; want it left alone", missing)
	}
}

// BenchmarkCommand measures one spooled hook as a CLI runs it: /bin/sh,
// date, cat and mv for a 2 KB payload.
func BenchmarkCommand(b *testing.B) {
	dir := b.TempDir()
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_input":"` + strings.Repeat("x", 2000) + `"}`
	cmd := Command(dir, "PreToolUse")
	for b.Loop() {
		c := exec.Command("/bin/sh", "-c", cmd)
		c.Stdin = strings.NewReader(payload)
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
