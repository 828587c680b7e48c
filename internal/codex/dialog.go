package codex

import "lab/internal/conv"

// Tool names of the Codex CLI 0.171.0 (model gpt-5.5) that lab treats
// specially. The hooks report exec_command as "Bash" (HookToolBash).
const (
	ToolExecCommand      = "exec_command"
	ToolWriteStdin       = "write_stdin"
	ToolApplyPatch       = "apply_patch"
	ToolRequestUserInput = "request_user_input"
	ToolUpdatePlan       = "update_plan"
)

// DialogFromTool builds the pending dialog a hook's PreToolUse payload
// describes, with the same mapper the fold uses for rollout calls, so a
// spool-served dialog and its later stream message agree. It returns nil
// for tools that are not dialogs.
func DialogFromTool(toolName, callID string, input []byte) *conv.Dialog {
	if toolName != ToolRequestUserInput {
		return nil
	}
	d, _ := questionDialog(callID, input)
	return d
}
