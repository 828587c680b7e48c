package codex

import (
	"strings"
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// questionDialog builds the dialog of a request_user_input call from its
// arguments {"questions":[{"id","header","question","options":[{"label",
// "description"}]}]} and returns the questions' ids, which the recorded
// answers are filed under. Codex questions are single-select; the CLI adds
// a "None of the above" row and a notes field to every one. Texts are kept
// whole.
func questionDialog(id string, args []byte) (*conv.Dialog, []string) {
	return foldkit.QuestionDialog(id, args)
}

// The tags around a plan in Plan mode; the CLI renders the block as a
// plan and then asks "Implement this plan?".
const (
	planOpen  = "<proposed_plan>"
	planClose = "</proposed_plan>"
)

// splitPlan finds a <proposed_plan> block (its tags on their own lines)
// in an assistant message and returns the text around it and the plan.
func splitPlan(s string) (before, plan, after string, ok bool) {
	i := strings.Index(s, planOpen)
	if i < 0 {
		return "", "", "", false
	}
	rest := s[i+len(planOpen):]
	j := strings.Index(rest, planClose)
	if j < 0 {
		return "", "", "", false
	}
	return s[:i], strings.Trim(rest[:j], "\n"), rest[j+len(planClose):], true
}

// planDialog records a proposed plan as a plan dialog. Its id is the
// message item's, so it is stable across re-folds; the approval rows come
// from the pane (the live layer dresses them).
func (f *Fold) planDialog(id, plan string, t time.Time) {
	if id == "" {
		id = "plan-" + t.UTC().Format(time.RFC3339Nano)
	}
	if _, dup := f.Call(id); dup {
		return
	}
	f.PushDialog(&conv.Dialog{ToolID: id, Kind: conv.DialogPlan, Plan: plan, Answerable: true}, t)
}

// settlePlans resolves the pending plans when the next prompt arrives: the
// rollout never records the approval picker itself, only what follows it.
// A turn in Default mode means the plan was approved (the CLI switches mode
// and sends its own "Implement the plan." prompt); a turn still in Plan
// mode means the operator chose to keep planning, and the prompt is the
// feedback.
func (f *Fold) settlePlans(prompt string, t time.Time) {
	f.ResolvePending(t, func(d *conv.Dialog) *conv.Outcome {
		if d.Kind != conv.DialogPlan {
			return nil
		}
		if f.mode == "plan" {
			return &conv.Outcome{Feedback: prompt}
		}
		return &conv.Outcome{Approved: true}
	})
}

// dismissPending resolves every pending question as dismissed: something
// (a prompt, an interrupt) shows its picker is gone without an answer.
// Plans wait for the next prompt (settlePlans): their picker comes after
// the turn ended.
func (f *Fold) dismissPending(t time.Time) {
	f.ResolvePending(t, func(d *conv.Dialog) *conv.Outcome {
		if d.Kind == conv.DialogPlan {
			return nil
		}
		return &conv.Outcome{Dismissed: true}
	})
}
