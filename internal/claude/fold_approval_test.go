package claude

import (
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

func fxAttachment(t testing.TB, typ string) string {
	return fxLine(t, fxObj{"parentUuid": "x", "isSidechain": false, "attachment": fxObj{"type": typ},
		"type": "attachment", "uuid": "at", "timestamp": "2026-07-08T10:00:03.000Z", "sessionId": "sess-1"})
}

// TestPlanApprovalMode: which approval row was taken is read from what
// follows the resolution (see fold_approval.go), and only an approval
// gets a mode.
func TestPlanApprovalMode(t *testing.T) {
	plan := fxAssistant(t, "tool_use", fxToolUse("toolu_p", "ExitPlanMode", fxObj{"plan": "# P"}))
	approved := fxResult(t, "toolu_p", "User has approved your plan.", false, fxObj{"toolUseResult": fxObj{"plan": "# P"}})
	rejected := fxResult(t, "toolu_p", "Error: the user said:\nno", true, fxObj{"toolUseResult": "Error: To tell you how to proceed, the user said:\nno", "toolDenialKind": "user-rejected"})
	next := fxAssistant(t, "end_turn", fxText("Starting."))
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"auto mode row", []string{plan, approved, fxAttachment(t, "plan_mode_exit"), fxAttachment(t, "auto_mode"), next}, conv.ApprovalAuto},
		{"auto mode, agent not yet on", []string{plan, approved, fxAttachment(t, "plan_mode_exit"), fxAttachment(t, "auto_mode")}, conv.ApprovalAuto},
		{"manual row", []string{plan, approved, fxAttachment(t, "plan_mode_exit"), fxAttachment(t, "date"), next}, conv.ApprovalManual},
		{"manual row, then a prompt", []string{plan, approved, fxAttachment(t, "plan_mode_exit"), fxUser(t, "go on", nil)}, conv.ApprovalManual},
		{"not settled yet", []string{plan, approved, fxAttachment(t, "plan_mode_exit")}, ""},
		{"no exit recorded (older CLI)", []string{plan, approved, next}, ""},
		{"auto mode long after", []string{plan, approved, next, fxAttachment(t, "auto_mode")}, ""},
		{"rejected", []string{plan, rejected, fxAttachment(t, "plan_mode_exit"), fxAttachment(t, "auto_mode"), next}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFold()
			f.Write([]byte(strings.Join(tc.lines, "")))
			msgs, _ := f.Messages(0, 0, 0)
			var out *conv.Outcome
			for _, m := range msgs {
				if m.Dialog != nil {
					out = m.Dialog.Outcome
				}
			}
			if out == nil {
				t.Fatal("the plan has no outcome")
			}
			if out.ApprovalMode != tc.want {
				t.Fatalf("got approval mode %q (outcome %+v); want %q", out.ApprovalMode, out, tc.want)
			}
		})
	}
}

// TestToolDetail: an expanded chip's full input where the summary cuts it.
func TestToolDetail(t *testing.T) {
	long := strings.Repeat("x", foldkit.SummaryMax+10)
	for _, tc := range []struct {
		name, tool string
		input      fxObj
		detail     string
		cut        bool
	}{
		{"short command", "Bash", fxObj{"command": "ls -la"}, "", false},
		{"multi-line command", "Bash", fxObj{"command": "cat <<EOF\nhi\nEOF"}, "cat <<EOF\nhi\nEOF", false},
		{"long command", "Bash", fxObj{"command": "echo " + long}, "echo " + long, false},
		{"write", "Write", fxObj{"file_path": "/a.md", "content": "# A\n\nbody"}, "# A\n\nbody", false},
		{"big write", "Write", fxObj{"file_path": "/a.md", "content": strings.Repeat("y", foldkit.OutputMax+1)}, strings.Repeat("y", foldkit.OutputMax), true},
		{"empty write", "Write", fxObj{"file_path": "/a.md", "content": ""}, "", false},
		{"read", "Read", fxObj{"file_path": "/a.md"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFold()
			f.Write([]byte(fxAssistant(t, "tool_use", fxToolUse("toolu_1", tc.tool, tc.input))))
			msgs, _ := f.Messages(0, 0, 0)
			if len(msgs) != 1 || msgs[0].Tool == nil {
				t.Fatalf("got %+v; want one tool", msgs)
			}
			if msgs[0].Tool.Detail != tc.detail || msgs[0].Tool.DetailTruncated != tc.cut {
				t.Fatalf("got detail %q (cut %v); want %q (cut %v)", msgs[0].Tool.Detail, msgs[0].Tool.DetailTruncated, tc.detail, tc.cut)
			}
		})
	}
}
