package chat

import (
	"context"
	"time"

	"lab/internal/claude"
	"lab/internal/conv"
)

// planRowsTimeout bounds the pane read that labels a plan's approval rows.
const planRowsTimeout = 2 * time.Second

// planRows returns the approval picker's row labels for a pending plan, as
// the run's pane shows them (row 0's wording varies with the session's
// mode, and the row count with the CLI version). They are read once per
// dialog and remembered; nil while the picker is not on screen yet, so the
// client falls back to its defaults and a later request tries again.
func (s *Service) planRows(runID, toolID string) []string {
	s.mu.Lock()
	rows, ok := s.rows[toolID]
	s.mu.Unlock()
	if ok {
		return rows
	}
	ctx, cancel := context.WithTimeout(context.Background(), planRowsTimeout)
	defer cancel()
	pane := s.runs.Pane(runID)
	if pane == nil {
		return nil
	}
	capture, err := pane.Capture(ctx)
	if err != nil {
		return nil
	}
	scr := claude.ParseScreen(capture)
	if scr == nil || scr.Kind != claude.ScreenPlan {
		return nil
	}
	for _, r := range scr.Rows {
		if r.Number > 0 {
			rows = append(rows, r.Label)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	s.mu.Lock()
	if len(s.rows) >= maxRememberedRows {
		clear(s.rows)
	}
	s.rows[toolID] = rows
	s.mu.Unlock()
	return rows
}

// maxRememberedRows bounds the plan-row cache; plans are rare.
const maxRememberedRows = 256

// withPlanRows fills a pending plan dialog's rows on a page.
func (s *Service) withPlanRows(runID string, p *conv.Page) {
	d := p.PendingDialog
	if d == nil || d.Kind != conv.DialogPlan || len(d.PlanRows) > 0 {
		return
	}
	d.PlanRows = s.planRows(runID, d.ToolID)
}
