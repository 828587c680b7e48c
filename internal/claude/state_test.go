package claude

import (
	"testing"

	"lab/internal/conv"
)

func TestFoldState(t *testing.T) {
	prompt := fxUser(t, "Do the thing", nil)
	text := fxAssistant(t, "end_turn", fxText("Done."))
	textNull := fxAssistant(t, nil, fxText("Done."))
	textForTool := fxAssistant(t, "tool_use", fxText("Running it."))
	thinking := fxAssistant(t, nil, fxObj{"type": "thinking", "thinking": "hmm", "signature": "s"})
	bash := fxAssistant(t, "tool_use", fxToolUse("toolu_1", "Bash", fxObj{"command": "ls"}))
	bashDone := fxResult(t, "toolu_1", "a\nb", false, fxObj{"toolUseResult": fxObj{"stdout": "a\nb"}})
	ask := fxAsk(t, "toolu_q", fxQDB)
	answered := fxAnswered(t, "toolu_q", fxObj{"Which database should we use?": "SQLite"})
	declined := fxResult(t, "toolu_q", "rejected", true, fxObj{"toolUseResult": "User rejected tool use", "toolDenialKind": "user-rejected"})
	interruptTool := fxUser(t, []fxObj{fxText("[Request interrupted by user for tool use]")}, nil)
	interrupt := fxUser(t, []fxObj{fxText("[Request interrupted by user]")}, nil)
	echo := fxUser(t, "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>", nil)
	echoOut := fxUser(t, "<local-command-stdout>Set model to Opus</local-command-stdout>", nil)
	sysEcho := fxSystem(t, "local_command", fxObj{"content": "<command-name>/cost</command-name>"})
	apiErr := fxAssistant(t, "stop_sequence", fxText("API Error: 500"))
	apiErr = apiErr[:len(apiErr)-2] + `,"isApiErrorMessage":true}` + "\n"
	retry := fxSystem(t, "api_error", fxObj{"retryAttempt": 1, "maxRetries": 10})
	turnEnd := fxSystem(t, "turn_duration", fxObj{"durationMs": 10})
	compact := fxSystem(t, "compact_boundary", fxObj{"compactMetadata": fxObj{"trigger": "auto"}})
	meta := fxUser(t, "expanded skill text", fxObj{"isMeta": true})
	side := fxUser(t, "sub prompt", fxObj{"isSidechain": true})
	plan := fxPlan(t, "toolu_p", "# Plan")

	tests := []struct {
		name  string
		lines []string
		want  conv.State
	}{
		{"nothing yet", nil, conv.StateIdle},
		{"only bookkeeping and meta", []string{`{"type":"mode","mode":"normal"}` + "\n", meta, side}, conv.StateIdle},
		{"slash command echoes never move the state", []string{echo, echoOut, sysEcho}, conv.StateIdle},
		{"a prompt", []string{prompt}, conv.StateWorking},
		{"thinking", []string{prompt, thinking}, conv.StateWorking},
		{"prose that ended the turn", []string{prompt, text}, conv.StateNeedsInput},
		{"prose with stop_reason still null", []string{prompt, textNull}, conv.StateNeedsInput},
		{"prose before a tool call", []string{prompt, textForTool}, conv.StateWorking},
		{"a running tool", []string{prompt, textNull, bash}, conv.StateWorking},
		{"a tool result", []string{prompt, bash, bashDone}, conv.StateWorking},
		{"echo after the turn ended keeps needs_input", []string{prompt, text, echo, echoOut}, conv.StateNeedsInput},
		{"echo while working keeps working", []string{prompt, bash, sysEcho}, conv.StateWorking},
		{"pending question", []string{prompt, ask}, conv.StateQuestion},
		{"pending plan", []string{prompt, plan}, conv.StateQuestion},
		{"answered dialog at the tail: the agent resumed", []string{prompt, ask, answered}, conv.StateWorking},
		{"declined then interrupt marker", []string{prompt, ask, declined, interruptTool}, conv.StateNeedsInput},
		{"interrupt with a picker open dismisses it", []string{prompt, ask, interruptTool}, conv.StateNeedsInput},
		{"interrupt mid-stream", []string{prompt, textNull, interrupt}, conv.StateNeedsInput},
		{"a failed request ends the turn", []string{prompt, apiErr}, conv.StateNeedsInput},
		{"a retried request keeps working", []string{prompt, retry}, conv.StateWorking},
		{"end-of-turn record", []string{prompt, bash, bashDone, turnEnd}, conv.StateNeedsInput},
		{"compaction does not move the state", []string{prompt, text, compact}, conv.StateNeedsInput},
		{"a new prompt after a turn", []string{prompt, text, turnEnd, prompt}, conv.StateWorking},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fxFold(tc.lines...)
			if got := f.State(); got != tc.want {
				t.Errorf("State() = %s; want %s", got, tc.want)
			}
			if pending := f.PendingDialog(); (pending != nil) != (tc.want == conv.StateQuestion) {
				t.Errorf("PendingDialog() = %v with state %s; want a dialog exactly in state question", pending, tc.want)
			}
		})
	}
}

// TestFoldPendingDialogIsTheOpenPicker checks which dialog PendingDialog
// serves and that it is a copy.
func TestFoldPendingDialogIsTheOpenPicker(t *testing.T) {
	f := fxFold(fxUser(t, "go", nil), fxAsk(t, "toolu_a", fxQDB), fxAnswered(t, "toolu_a", fxObj{"Which database should we use?": "MySQL"}),
		fxAsk(t, "toolu_b", fxQDB, fxQTop))
	d := f.PendingDialog()
	if d == nil || d.ToolID != "toolu_b" || len(d.Questions) != 2 || !d.Answerable {
		t.Fatalf("PendingDialog() = %+v; want the answerable two-question dialog toolu_b", d)
	}
	d.Questions[0].Options[0].Label = "changed"
	d.Questions = nil
	again := f.PendingDialog()
	if again.Questions[0].Options[0].Label != "SQLite" {
		t.Errorf("a caller's edit reached the fold: label %q; want SQLite", again.Questions[0].Options[0].Label)
	}
	if !f.Resolved("toolu_a") || f.Resolved("toolu_b") || f.Resolved("toolu_none") {
		t.Errorf("Resolved a/b/none = %v/%v/%v; want true/false/false", f.Resolved("toolu_a"), f.Resolved("toolu_b"), f.Resolved("toolu_none"))
	}
}
