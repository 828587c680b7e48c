package claude

import (
	"fmt"
	"strings"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// ValidateAnswer checks an answer against the pending dialog before any key
// is sent. It returns a conv error of kind EConflict when the answer is not
// aimed at d (another tool_id, no dialog, already resolved, or a dialog
// lab cannot drive) and EInvalid when the answer is malformed:
//
// Questions take exactly one QuestionAnswer per question, in order. Chosen
// holds indexes into that question's listed options only; the free-text
// row is never an index, it is chosen by a non-empty OtherText. A
// single-select question takes exactly one choice (one index or the
// text); a multi-select one at least one (indexes in toggle order, plus
// optionally the text). Indexes are in range and not repeated. Free text
// is one line without control characters (the TUI records a pasted
// newline as a carriage return and a newline in a question row breaks
// the row), not blank, at most clikit.MaxFreeText bytes, and not equal to a
// listed label (the record would read as that option).
//
// Plans take Option, a row of g: an approve row without feedback, or the
// feedback row with the feedback text (required there; same rules as
// free text).
func ValidateAnswer(d *conv.Dialog, a conv.Answer, g PlanGeometry) error {
	return clikit.CheckAnswer(d, a, clikit.Rules{
		Question:   validateQuestion,
		Plan:       func(d *conv.Dialog, a conv.Answer) error { return validatePlan(a, g.ForDialog(d)) },
		Permission: validatePermission,
	})
}

func validateQuestion(q conv.Question, qa conv.QuestionAnswer) error {
	seen := make(map[int]bool, len(qa.Chosen))
	for _, c := range qa.Chosen {
		if c < 0 || c >= len(q.Options) {
			return fmt.Errorf("option %d is out of range (0..%d)", c, len(q.Options)-1)
		}
		if seen[c] {
			return fmt.Errorf("option %d is chosen twice", c)
		}
		seen[c] = true
	}
	if qa.OtherText != "" {
		if err := clikit.CheckFreeText(qa.OtherText); err != nil {
			return err
		}
		segments := []string{qa.OtherText}
		if q.MultiSelect {
			// The record joins everything with ", "; a segment equal
			// to a label would read back as that option.
			segments = strings.Split(qa.OtherText, ", ")
		}
		for _, s := range segments {
			for _, o := range q.Options {
				if s == o.Label {
					return fmt.Errorf("free text %q reads as the listed option %q; choose the option instead", s, o.Label)
				}
			}
		}
	}
	n := len(qa.Chosen)
	if qa.OtherText != "" {
		n++
	}
	if !q.MultiSelect {
		if len(qa.Chosen) > 1 {
			return fmt.Errorf("a single-select question takes one option, got %d", len(qa.Chosen))
		}
		if n != 1 {
			return fmt.Errorf("a single-select question takes exactly one choice: an option or free text")
		}
		return nil
	}
	if n == 0 {
		return fmt.Errorf("choose at least one option or type free text")
	}
	return nil
}

func validatePlan(a conv.Answer, g PlanGeometry) error {
	if len(a.Answers) > 0 {
		return conv.Errorf(conv.EInvalid, "a plan takes option and feedback, not answers")
	}
	if a.Option == nil {
		return conv.Errorf(conv.EInvalid, "option is required for a plan")
	}
	o := *a.Option
	switch {
	case o < 0 || o >= len(g.Rows):
		return conv.Errorf(conv.EInvalid, "option %d is out of range (0..%d)", o, len(g.Rows)-1)
	case o == g.Feedback:
		if a.Feedback == "" {
			return conv.Errorf(conv.EInvalid, "option %d (%s) needs feedback", o, g.Rows[o])
		}
		if err := clikit.CheckFreeText(a.Feedback); err != nil {
			return conv.Errorf(conv.EInvalid, "feedback: %s", err)
		}
	case g.IsApprove(o):
		if a.Feedback != "" {
			return conv.Errorf(conv.EInvalid, "feedback goes only with the row that tells Claude what to change")
		}
	default:
		return conv.Errorf(conv.EConflict, "lab cannot tell what plan row %d (%q) does on this CLI version; answer it at the terminal", o, g.Rows[o])
	}
	return nil
}

// validatePermission checks an answer to a permission prompt: Option is one
// of the options read off the prompt, one lab knows the meaning of, and
// Feedback goes only with an option that takes text.
func validatePermission(p *conv.Permission, a conv.Answer) error {
	opt, o, err := clikit.PermissionOption(p, a, "a permission prompt takes option and feedback, not answers")
	if err != nil || a.Feedback == "" {
		return err
	}
	if !opt.Feedback {
		return conv.Errorf(conv.EInvalid, "option %d (%s) takes no feedback", o, opt.Label)
	}
	if err := clikit.CheckFreeText(a.Feedback); err != nil {
		return conv.Errorf(conv.EInvalid, "feedback: %s", err)
	}
	return nil
}
