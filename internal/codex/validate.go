package codex

import (
	"fmt"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// ValidateAnswer checks an answer against the pending dialog before any key
// is sent. It returns a conv error of kind EConflict when the answer is not
// aimed at d (another tool_id, no dialog, already resolved, or a dialog
// lab cannot drive) and EInvalid when the answer is malformed:
//
// Questions take exactly one QuestionAnswer per question, in order. Codex
// questions are single-select, and every one also offers "None of the
// above" and a notes field: Chosen holds at most one index into the
// listed options; OtherText is the notes, typed with the option or, with
// no option chosen, with "None of the above" (then it is required). Notes
// are one line without control characters, not blank, at most
// clikit.MaxFreeText bytes.
//
// Plans take Option, a row of the picker (d.PlanRows, else the rows of
// 0.171.0): an approval row without feedback, or the stay-in-Plan-mode row
// with the feedback that becomes the next prompt (required there).
//
// Permission prompts take Option, one of the options read off the pane,
// of a role lab knows; no feedback (Codex's denial takes none: what to do
// differently is a reply after it).
func ValidateAnswer(d *conv.Dialog, a conv.Answer) error {
	return clikit.CheckAnswer(d, a, clikit.Rules{
		Question:   validateQuestion,
		Plan:       func(d *conv.Dialog, a conv.Answer) error { return validatePlan(d.PlanRows, a) },
		Permission: validatePermission,
	})
}

func validateQuestion(q conv.Question, qa conv.QuestionAnswer) error {
	if len(qa.Chosen) > 1 {
		return fmt.Errorf("a Codex question takes one option, got %d", len(qa.Chosen))
	}
	for _, c := range qa.Chosen {
		if c < 0 || c >= len(q.Options) {
			return fmt.Errorf("option %d is out of range (0..%d)", c, len(q.Options)-1)
		}
	}
	if qa.OtherText != "" {
		if err := clikit.CheckFreeText(qa.OtherText); err != nil {
			return fmt.Errorf("notes: %w", err)
		}
	}
	if len(qa.Chosen) == 0 && qa.OtherText == "" {
		return fmt.Errorf("choose an option, or type notes (None of the above)")
	}
	return nil
}

func validatePlan(rows []string, a conv.Answer) error {
	if len(a.Answers) > 0 {
		return conv.Errorf(conv.EInvalid, "a plan takes option and feedback, not answers")
	}
	if a.Option == nil {
		return conv.Errorf(conv.EInvalid, "option is required for a plan")
	}
	if len(rows) == 0 {
		rows = DefaultPlanRows
	}
	o := *a.Option
	if o < 0 || o >= len(rows) {
		return conv.Errorf(conv.EInvalid, "option %d is out of range (0..%d)", o, len(rows)-1)
	}
	switch PlanRoleOf(rows, o) {
	case PlanStay:
		if a.Feedback == "" {
			return conv.Errorf(conv.EInvalid, "option %d (%s) needs feedback: it becomes the next prompt", o, rows[o])
		}
		if err := clikit.CheckFreeText(a.Feedback); err != nil {
			return conv.Errorf(conv.EInvalid, "feedback: %s", err)
		}
	case PlanApprove, PlanApproveFresh:
		if a.Feedback != "" {
			return conv.Errorf(conv.EInvalid, "feedback goes only with the row that keeps planning")
		}
	default:
		return conv.Errorf(conv.EInvalid, "option %d (%s) is not one lab knows how to choose", o, rows[o])
	}
	return nil
}

// validatePermission checks an answer to an approval prompt. No option
// takes feedback on 0.171.0: what to do differently is the next prompt.
func validatePermission(p *conv.Permission, a conv.Answer) error {
	opt, o, err := clikit.PermissionOption(p, a, "a permission prompt takes option, not answers")
	if err == nil && a.Feedback != "" && !opt.Feedback {
		return conv.Errorf(conv.EInvalid, "option %d (%s) takes no feedback; send it as a reply once the turn stops", o, opt.Label)
	}
	return err
}
