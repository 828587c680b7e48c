package chat

import (
	"context"
	"time"

	"lab/internal/conv"
)

// dressTimeout bounds the pane read that dresses a pending dialog.
const dressTimeout = 2 * time.Second

// dress fills in what only the run's pane shows about its pending dialog
// (a plan's approval rows as the CLI labels them, which vary with the
// session's mode and the CLI version). What a pane showed is remembered
// per dialog; while the picker is not on screen yet nothing is filled, so
// the client falls back to its defaults and a later request tries again.
func (s *Service) dress(runID string, p *conv.Page) {
	d := p.PendingDialog
	if d == nil || d.Kind != conv.DialogPlan || len(d.PlanRows) > 0 {
		return
	}
	s.mu.Lock()
	rows, ok := s.rows[d.ToolID]
	s.mu.Unlock()
	if ok {
		d.PlanRows = rows
		return
	}
	drv := s.driverOf(runID)
	pane := s.runs.Pane(runID)
	if drv == nil || pane == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), dressTimeout)
	defer cancel()
	capture, err := pane.Capture(ctx)
	if err != nil || !drv.Dress(d, capture) {
		return
	}
	s.mu.Lock()
	if len(s.rows) >= maxRemembered {
		clear(s.rows)
	}
	s.rows[d.ToolID] = d.PlanRows
	s.mu.Unlock()
}

// maxRemembered bounds the per-dialog pane cache; dialogs are rare.
const maxRemembered = 256
