package codex

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hook command spools its stdin atomically and prints nothing, even
// when the spool dir has a quote in its name or does not exist.
func TestHookCommandSpools(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's spooled")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s","hook_event_name":"Stop"}`
	cmd := exec.Command("/bin/sh", "-c", HookCommand(dir, HookStop))
	cmd.Stdin = strings.NewReader(payload)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("hook: %v, output %q; want silent success", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "Stop.*.json"))
	if len(files) != 1 {
		t.Fatalf("spooled %v; want one Stop file", files)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != payload {
		t.Fatalf("spooled %q; want the payload", b)
	}
	cmd = exec.Command("/bin/sh", "-c", HookCommand(filepath.Join(dir, "missing"), HookStop))
	cmd.Stdin = strings.NewReader(payload)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("hook into a missing dir: %v, %q; want silent success", err, out)
	}
}

// The -c flags parse as the TOML the CLI reads: each value is an array of
// one matcher group with one command hook, the command surviving quoting.
func TestHookArgs(t *testing.T) {
	dir := "/tmp/lab run/it's \"here\"\\"
	args, err := HookArgs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if args[len(args)-1] != "--dangerously-bypass-hook-trust" {
		t.Fatalf("last flag %q; want the trust bypass", args[len(args)-1])
	}
	var events []string
	for i := 0; i+1 < len(args)-1; i += 2 {
		if args[i] != "-c" {
			t.Fatalf("flag %q; want -c", args[i])
		}
		key, val, ok := strings.Cut(args[i+1], "=")
		if !ok || !strings.HasPrefix(key, "hooks.") {
			t.Fatalf("override %q", args[i+1])
		}
		ev := strings.TrimPrefix(key, "hooks.")
		events = append(events, ev)
		// The value is TOML; with keys quoted it is also JSON, which
		// checks the string escaping.
		js := strings.NewReplacer("hooks=", `"hooks":`, "type=", `"type":`, "command=", `"command":`, "timeout=", `"timeout":`).Replace(val)
		var groups []struct {
			Hooks []struct {
				Type, Command string
				Timeout       int
			}
		}
		if err := json.Unmarshal([]byte(js), &groups); err != nil {
			t.Fatalf("%s: %v in %s", ev, err, js)
		}
		h := groups[0].Hooks[0]
		if len(groups) != 1 || h.Type != "command" || h.Command != HookCommand(dir, ev) || h.Timeout != hookTimeoutSeconds {
			t.Fatalf("%s: got %+v", ev, groups)
		}
	}
	if strings.Join(events, ",") != strings.Join(HookEvents, ",") {
		t.Fatalf("events %v; want %v", events, HookEvents)
	}
	if _, err := HookArgs("relative/spool"); err == nil {
		t.Fatal("a relative spool dir was accepted")
	}
}
