package claudetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/fakeclaudeapi"
)

func TestFindCLIFailsClearly(t *testing.T) {
	t.Setenv("LAB_CLAUDE_BIN", filepath.Join(t.TempDir(), "nope"))
	_, err := FindCLI()
	if err == nil || !strings.Contains(err.Error(), "scripts/install-claude.sh") {
		t.Fatalf("got %v; want an error naming scripts/install-claude.sh", err)
	}
}

func TestInstalledVersion(t *testing.T) {
	cases := map[string]string{
		"/r/tools/claude-2.1.332/node_modules/@anthropic-ai/claude-code/bin/claude.exe": "2.1.332",
		"tools/claude-2.1.328/node_modules/x/claude.exe":                                "2.1.328",
		"/usr/local/bin/claude":       "",
		"/opt/claude-code/bin/claude": "",
	}
	for bin, want := range cases {
		if got := InstalledVersion(bin); got != want {
			t.Errorf("InstalledVersion(%q) = %q; want %q", bin, got, want)
		}
	}
}

func TestHomeIsSeededAndIsolated(t *testing.T) {
	home := Home(t, "/some/work")
	b, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hasCompletedOnboarding": true`, APIKey, `"/some/work"`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("seeded .claude.json lacks %s:\n%s", want, b)
		}
	}
	if real, _ := os.UserHomeDir(); strings.HasPrefix(home, real+string(filepath.Separator)) && real != "/" {
		t.Fatalf("test home %s is inside the real home %s", home, real)
	}
}

// TestRealCLIReachesTheScriptedModel proves the whole harness: the real
// CLI starts without first-run screens in a private tmux server, sends the
// prompt to the scripted model and renders its reply.
func TestRealCLIReachesTheScriptedModel(t *testing.T) {
	r := NewRig(t, fakeclaudeapi.Options{})
	r.Spawn("smoke", "lab:text hello harness")
	req := r.WaitRequest(30*time.Second, "the prompt", func(q fakeclaudeapi.Request) bool {
		return q.Kind == "messages" && strings.Contains(q.Prompt, "hello harness")
	})
	if req.Scenario != "text" || !strings.HasPrefix(req.Path, "/v1/messages") {
		t.Fatalf("got %+v; want a messages request answered by the text scenario", req)
	}
	r.WaitPane("smoke", "You said: lab:text hello harness", 30*time.Second)
	// The CLI wrote its transcript under the isolated HOME.
	Poll(t, 10*time.Second, "a transcript under the test HOME", func() bool {
		m, _ := filepath.Glob(filepath.Join(r.Home, ".claude", "projects", "*", "*.jsonl"))
		return len(m) == 1
	})
}
