package claude

import (
	"slices"

	"lab/internal/conv"
	"strings"
)

// PlanGeometry is the ExitPlanMode approval picker of one CLI version: its
// rows top to bottom, which of them approve the plan, which one is the
// free-text feedback row (a rejection that tells the agent what to
// change), and the version it was observed on. Rows that are neither
// (2.1.198's "refine with Ultraplan") are never chosen by lab.
type PlanGeometry struct {
	Version  string
	Rows     []string
	Approve  []int
	Feedback int
}

// planGeometries are the observed pickers, oldest first.
//
// 2.1.198 had a fourth row, "No, refine with Ultraplan…", before the
// feedback row; only its position and count are pinned, the approve
// rows' wording there is not (row 0's wording varies with the session's
// mode anyway, so recipes check rows by position).
var planGeometries = []PlanGeometry{
	{Version: "2.1.198", Rows: []string{"Yes", "Yes, manually approve edits", "No, refine with Ultraplan…", "Tell Claude what to change"}, Approve: []int{0, 1}, Feedback: 3},
	{Version: "2.1.328", Rows: []string{"Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"}, Approve: []int{0, 1}, Feedback: 2},
}

// PlanPicker returns the plan picker geometry for a CLI version: the one
// observed on the newest known version not newer than it, the oldest
// known for older versions, and the newest known for anything unknown,
// unparsable or newer. The cursor checkpoint in the recipe confirms the
// row count on screen, so a wrong guess ends in a conflict, not in a
// wrong answer.
func PlanPicker(cliVersion string) PlanGeometry {
	newest := planGeometries[len(planGeometries)-1]
	if _, ok := CompareVersions(cliVersion, newest.Version); !ok {
		return newest
	}
	for i := len(planGeometries) - 1; i >= 0; i-- {
		g := planGeometries[i]
		if c, _ := CompareVersions(g.Version, cliVersion); c <= 0 {
			return g
		}
	}
	return planGeometries[0]
}

// planRowRole says what a plan approval row does from its label:
// "approve" (the CLI words every approval "Yes…"), "feedback" (the
// free-text rejection), or "" for a row lab does not choose.
func planRowRole(label string) string {
	l := strings.TrimSpace(label)
	switch {
	case strings.HasPrefix(l, "Yes"):
		return "approve"
	case strings.HasPrefix(l, "Tell Claude what to change"), strings.HasPrefix(l, "No, and tell Claude what to change"):
		return "feedback"
	}
	return ""
}

// ForDialog is the picker a pending plan dialog shows: when its rows were
// read off the pane (PlanRows), their roles come from their labels, so a
// reordered or reworded picker is answered by what each row says, and a
// row lab cannot read is never chosen; otherwise g, the version's
// observed picker. The recipe's first checkpoint then requires the pane
// to show exactly these rows.
func (g PlanGeometry) ForDialog(d *conv.Dialog) PlanGeometry {
	if d == nil || d.Kind != conv.DialogPlan || len(d.PlanRows) == 0 {
		return g
	}
	out := PlanGeometry{Version: g.Version, Rows: slices.Clone(d.PlanRows), Feedback: -1}
	for i, r := range d.PlanRows {
		switch planRowRole(r) {
		case "approve":
			out.Approve = append(out.Approve, i)
		case "feedback":
			if out.Feedback < 0 {
				out.Feedback = i
			}
		}
	}
	return out
}

// planOptions says what each plan picker row does, for clients: roles by
// label (planRowRole), and for an approving row the way the agent goes on
// when its label says (auto mode, accepting edits: the agent carries on by
// itself; manually approving edits: it asks before each).
func planOptions(rows []string) []conv.PlanOption {
	out := make([]conv.PlanOption, len(rows))
	for i, r := range rows {
		o := conv.PlanOption{Label: r, Role: conv.PlanOther}
		switch planRowRole(r) {
		case "approve":
			o.Role = conv.PlanApprove
			l := strings.ToLower(r)
			switch {
			case strings.Contains(l, "manual"):
				o.Mode = conv.ApprovalManual
			case strings.Contains(l, "auto mode"), strings.Contains(l, "auto-accept"), strings.Contains(l, "accept edits"):
				o.Mode = conv.ApprovalAuto
			}
		case "feedback":
			o.Role = conv.PlanFeedback
		}
		out[i] = o
	}
	return out
}

// IsApprove reports whether row i approves the plan.
func (g PlanGeometry) IsApprove(i int) bool { return slices.Contains(g.Approve, i) }
