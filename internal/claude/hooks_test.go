package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lab/internal/hookspool"
)

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
		if h.Type != "command" || h.Timeout <= 0 || h.Command != hookspool.Command(spool, ev) {
			t.Errorf("%s: got %+v; want a command hook with a timeout", ev, h)
		}
	}
	if _, err := HookSettings("relative/spool"); err == nil {
		t.Fatal("got no error for a relative spool dir; want one")
	}
}

// TestSettingsLetTheAgentReadUploads: the run's settings allow reading
// its uploads folder (an absolute path rule), and only a folder a rule
// can name plainly; without one there is no permissions block at all.
func TestSettingsLetTheAgentReadUploads(t *testing.T) {
	for _, c := range []struct {
		readable []string
		want     []string
	}{
		{nil, nil},
		{[]string{"/s/runs/r1/uploads"}, []string{"Read(//s/runs/r1/uploads/**)"}},
		{[]string{"/s/runs/r1/uploads/", "/odd (dir)/uploads", "relative/uploads"}, []string{"Read(//s/runs/r1/uploads/**)"}},
	} {
		b, err := HookSettings("/s/runs/r1/spool", c.readable...)
		if err != nil {
			t.Fatal(err)
		}
		var s hookSettings
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		var got []string
		if s.Permissions != nil {
			got = s.Permissions.Allow
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("readable %q: allow %q; want %q", c.readable, got, c.want)
		}
	}
}
