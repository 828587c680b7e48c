package codex

import "strings"

// PlanRole is what a row of the "Implement this plan?" picker does.
type PlanRole string

const (
	PlanApprove      PlanRole = "approve"       // switch to Default mode and implement
	PlanApproveFresh PlanRole = "approve_fresh" // implement in a new thread (a new rollout)
	PlanStay         PlanRole = "stay"          // keep planning: the feedback follows as a prompt
	PlanUnknown      PlanRole = ""
)

// DefaultPlanRows are the plan picker's rows on 0.171.0, used when the
// pane has not been read yet. Recipes find rows by these labels on the
// pane, never by position alone.
var DefaultPlanRows = []string{"Yes, implement this plan", "Yes, clear context and implement", "No, stay in Plan mode"}

// planRoleOfLabel maps a plan picker row's label to its role by the words
// that lead it; anything else is unknown and lab will not choose it.
func planRoleOfLabel(label string) PlanRole {
	switch {
	case strings.HasPrefix(label, "Yes, implement"):
		return PlanApprove
	case strings.HasPrefix(label, "Yes, clear context"):
		return PlanApproveFresh
	case strings.HasPrefix(label, "No, stay"):
		return PlanStay
	}
	return PlanUnknown
}

// PlanRoleOf returns the role of row i of a plan picker whose rows are
// rows (DefaultPlanRows when nil).
func PlanRoleOf(rows []string, i int) PlanRole {
	if len(rows) == 0 {
		rows = DefaultPlanRows
	}
	if i < 0 || i >= len(rows) {
		return PlanUnknown
	}
	return planRoleOfLabel(rows[i])
}
