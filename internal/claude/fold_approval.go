package claude

import (
	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// Which row approved a plan is not in the resolution itself: 2.1.328
// records the same toolUseResult and permissionDecision for "Yes, and use
// auto mode" and "Yes, manually approve edits". What differs is what the
// CLI writes next, before the agent's next line: after either row a
// plan_mode_exit attachment, and after the auto-mode row an auto_mode
// attachment as well (pinned by the plan_approved and
// plan_approved_manual captures; the same whatever mode the session was
// in before plan mode). So an approval's mode is patched onto its outcome
// a line or two after the resolution:
//
//   - an auto_mode attachment: ApprovalAuto;
//   - plan_mode_exit, then the agent's next line or a prompt without an
//     auto_mode attachment between: ApprovalManual;
//   - anything else (older versions, a transcript cut short): unknown.

// watchApproval starts watching for the mode of the plan approved at
// index i.
func (f *Fold) watchApproval(i int) {
	f.approvedPlan, f.planExited = i+1, false
}

// applyAttachment reads the attachment lines that tell an approval's mode.
func (f *Fold) applyAttachment(ln *foldLine) {
	if f.approvedPlan == 0 {
		return
	}
	switch jsonscan.Str(jsonscan.Member(ln.attachment, "type")) {
	case "plan_mode_exit":
		f.planExited = true
	case "auto_mode":
		f.setApproval(conv.ApprovalAuto)
	}
}

// settleApproval ends the watch when the conversation moves on: with the
// plan exited and no auto mode announced, the edits are approved by hand.
func (f *Fold) settleApproval() {
	if f.approvedPlan == 0 {
		return
	}
	if f.planExited {
		f.setApproval(conv.ApprovalManual)
		return
	}
	f.approvedPlan = 0
}

func (f *Fold) setApproval(mode string) {
	i := f.approvedPlan - 1
	f.approvedPlan, f.planExited = 0, false
	if d := f.At(i).Dialog; d != nil && d.Outcome != nil && d.Outcome.Approved {
		d.Outcome.ApprovalMode = mode
		f.Changed(i)
	}
}
