package claude

import (
	"slices"
	"strconv"
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
	v, ok := parseVersion(cliVersion)
	if !ok {
		return newest
	}
	for i := len(planGeometries) - 1; i >= 0; i-- {
		g := planGeometries[i]
		gv, _ := parseVersion(g.Version)
		if compareVersions(gv, v) <= 0 {
			return g
		}
	}
	return planGeometries[0]
}

// IsApprove reports whether row i approves the plan.
func (g PlanGeometry) IsApprove(i int) bool { return slices.Contains(g.Approve, i) }

// parseVersion reads "2.1.328" or "2.1.328 (Claude Code)".
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func compareVersions(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
