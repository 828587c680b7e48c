package codex

import (
	"testing"

	"lab/internal/conv"
)

// TestFoldSettings: the rollout's turn contexts and settings changes say
// the model and the mode: Plan mode when the collaboration mode is plan,
// else the sandbox (a policy's type, or the profile a change applied).
func TestFoldSettings(t *testing.T) {
	turnContext := func(model, sandbox, collab string) string {
		return fxLine(t, "turn_context", fxObj{"model": model, "sandbox_policy": fxObj{"type": sandbox, "network_access": false},
			"collaboration_mode": fxObj{"mode": collab, "settings": fxObj{"model": model}}, "approval_policy": "on-request"})
	}
	applied := func(model, profile, collab string) string {
		ts := fxObj{"model": model, "collaboration_mode": fxObj{"mode": collab}}
		if profile != "" {
			ts["active_permission_profile"] = fxObj{"id": profile}
		}
		return fxEvent(t, "thread_settings_applied", fxObj{"thread_settings": ts})
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  conv.Settings
	}{
		{"nothing recorded", []string{fxUser(t, "go", nil)}, conv.Settings{}},
		{"a turn's context", []string{turnContext("gpt-5.5", "workspace-write", "default")}, conv.Settings{Mode: SandboxWorkspaceWrite, Model: "gpt-5.5"}},
		{"Plan mode", []string{turnContext("gpt-5.5", "workspace-write", "default"), applied("gpt-5.5", "", "plan")}, conv.Settings{Mode: ModePlan, Model: "gpt-5.5"}},
		{"a profile applied after Plan mode",
			[]string{turnContext("gpt-5.5", "workspace-write", "plan"), applied("gpt-5.5", "", "default"), applied("gpt-5.5", ":read-only", "default")},
			conv.Settings{Mode: SandboxReadOnly, Model: "gpt-5.5"}},
		{"full access and another model", []string{applied("gpt-5.6-sol", ":danger-full-access", "default")}, conv.Settings{Mode: SandboxFullAccess, Model: "gpt-5.6-sol"}},
		{"a task started in plan", []string{turnContext("gpt-5.5", "read-only", "default"), fxEvent(t, "task_started", fxObj{"collaboration_mode_kind": "plan"})},
			conv.Settings{Mode: ModePlan, Model: "gpt-5.5"}},
	} {
		if got := foldOf(t, c.lines...).Settings(); got != c.want {
			t.Errorf("%s: got %+v; want %+v", c.name, got, c.want)
		}
	}
}
