package claude

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runHook runs the hook command for event the way the CLI does: /bin/sh -c
// with the payload on stdin.
func runHook(t *testing.T, spoolDir, event, payload string) (stdout string, err error) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", HookCommand(spoolDir, event))
	c.Stdin = strings.NewReader(payload)
	out, err := c.CombinedOutput()
	return string(out), err
}

func TestHookCommandSpoolsStdinAtomically(t *testing.T) {
	// A quote and a space in the path prove the quoting.
	dir := filepath.Join(t.TempDir(), "it's a spool")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s1","hook_event_name":"PreToolUse","tool_use_id":"toolu_1","tool_input":{"x":"it's \"quoted\"\n"}}`
	for i := 0; i < 3; i++ {
		out, err := runHook(t, dir, HookPreToolUse, payload)
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
		k, ok := parseSpoolName(e.Name())
		if !ok || k.event != HookPreToolUse || k.nanos == 0 || k.pid == 0 {
			t.Fatalf("got file %q (parsed %+v, %v); want PreToolUse.<nanos>.<pid>.json", e.Name(), k, ok)
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if string(b) != payload {
			t.Fatalf("got content %q; want the payload verbatim", b)
		}
	}
}

func TestHookCommandNeverFails(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	out, err := runHook(t, missing, HookStop, `{"a":1}`)
	if err != nil || out != "" {
		t.Fatalf("got output %q, err %v with a missing spool dir; want silence and exit 0", out, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("hook created %s; want it left missing", missing)
	}
}

func TestHookSettingsShape(t *testing.T) {
	dir := t.TempDir()
	spool := filepath.Join(dir, "spool")
	path := filepath.Join(dir, "settings.json")
	if err := WriteHookSettings(path, spool); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(spool); err != nil || !fi.IsDir() {
		t.Fatalf("spool dir not created: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s hookSettings
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Hooks) != len(HookEvents) {
		t.Fatalf("got %d hooked events; want %d", len(s.Hooks), len(HookEvents))
	}
	for _, ev := range HookEvents {
		ms := s.Hooks[ev]
		if len(ms) != 1 || len(ms[0].Hooks) != 1 {
			t.Fatalf("%s: got %+v; want one matcher with one command", ev, ms)
		}
		// Every tool's calls are spooled: a permission request finds
		// its tool_use id through the call's PreToolUse.
		if ms[0].Matcher != "" {
			t.Errorf("%s: got matcher %q; want none", ev, ms[0].Matcher)
		}
		h := ms[0].Hooks[0]
		if h.Type != "command" || h.Timeout <= 0 || h.Command != HookCommand(spool, ev) {
			t.Errorf("%s: got %+v; want a command hook with a timeout", ev, h)
		}
	}
	if _, err := HookSettings("relative/spool"); err == nil {
		t.Fatal("got no error for a relative spool dir; want one")
	}
}

// BenchmarkHookCommand measures one spooled hook as the CLI runs it:
// /bin/sh, date, cat and mv for a 2 KB payload.
func BenchmarkHookCommand(b *testing.B) {
	dir := b.TempDir()
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_input":"` + strings.Repeat("x", 2000) + `"}`
	cmd := HookCommand(dir, HookPreToolUse)
	for b.Loop() {
		c := exec.Command("/bin/sh", "-c", cmd)
		c.Stdin = strings.NewReader(payload)
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
