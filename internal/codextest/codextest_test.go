package codextest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/codex"
	"lab/internal/fakecodexapi"
)

func TestFindCLIFailsClearly(t *testing.T) {
	t.Setenv("LAB_CODEX_BIN", filepath.Join(t.TempDir(), "nope"))
	_, err := FindCLI()
	if err == nil || !strings.Contains(err.Error(), "scripts/install-codex.sh") {
		t.Fatalf("got %v; want an error naming scripts/install-codex.sh", err)
	}
}

// TestRealCLIReachesTheScriptedModel proves the whole harness: the real CLI
// starts in its network namespace without first-run screens (no model
// upgrade notice, no trust or hook review), sends the prompt to the
// scripted model served from the test process, renders its reply, and
// writes its rollout under the isolated CODEX_HOME; the title request that
// comes with the first turn does not take the scenario's step.
func TestRealCLIReachesTheScriptedModel(t *testing.T) {
	r := NewRig(t, fakecodexapi.Options{})
	r.Spawn("smoke", codex.SpawnOptions{Prompt: "lab:text hello harness"})
	req := r.WaitRequest(60*time.Second, "the prompt", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && strings.Contains(q.Prompt, "hello harness")
	})
	if req.Scenario != "text" || req.Path != "/v1/responses" || req.Model != codex.DefaultModel {
		t.Fatalf("got %+v; want a /v1/responses request for %s answered by the text scenario", req, codex.DefaultModel)
	}
	for _, tool := range []string{codex.ToolExecCommand, codex.ToolApplyPatch, codex.ToolRequestUserInput, codex.ToolUpdatePlan} {
		if !contains(req.Tools, tool) {
			t.Errorf("the request offers %v; want %s among them", req.Tools, tool)
		}
	}
	pane := r.WaitPane("smoke", "You said: lab:text hello harness", 60*time.Second)
	for _, screen := range []string{"Meet GPT", "Trust this folder", "Hooks need review"} {
		if strings.Contains(pane, screen) {
			t.Errorf("the pane shows %q; want the first-run screens skipped", screen)
		}
	}
	Poll(t, 20*time.Second, "a rollout under the test CODEX_HOME", func() bool { return len(r.Sessions()) == 1 })
	Poll(t, 20*time.Second, "the title request", func() bool {
		for _, q := range r.API.Requests() {
			if q.Kind == fakecodexapi.KindTitle {
				return true
			}
		}
		return false
	})
	if home, _ := os.UserHomeDir(); strings.HasPrefix(r.CodexHome, home+string(filepath.Separator)) && home != "/" {
		t.Fatalf("test CODEX_HOME %s is inside the real home %s", r.CodexHome, home)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
