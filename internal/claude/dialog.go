package claude

import "lab/internal/conv"

// Dialog tool names.
const (
	ToolAskUserQuestion = "AskUserQuestion"
	ToolExitPlanMode    = "ExitPlanMode"
)

// DialogFromTool builds the pending dialog a hook's PreToolUse payload
// describes, with the same mapper the fold uses for transcript tool_use
// blocks, so a spool-served dialog and its later stream message agree. It
// returns nil for tools that are not dialogs.
func DialogFromTool(toolName, toolUseID string, input []byte) *conv.Dialog {
	switch toolName {
	case ToolAskUserQuestion:
		return foldQuestionDialog(toolUseID, input)
	case ToolExitPlanMode:
		return foldPlanDialog(toolUseID, input)
	}
	return nil
}

// DialogTool reports whether a tool opens a dialog picker itself.
func DialogTool(name string) bool { return name == ToolAskUserQuestion || name == ToolExitPlanMode }
