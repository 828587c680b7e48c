package codex

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
)

// MaxFreeText bounds the text lab types into a picker (a question's notes)
// or sends as a follow-up (plan or denial feedback), in bytes.
const MaxFreeText = 4096

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
// MaxFreeText bytes.
//
// Plans take Option, a row of the picker (d.PlanRows, else the rows of
// 0.171.0): an approval row without feedback, or the stay-in-Plan-mode row
// with the feedback that becomes the next prompt (required there).
//
// Permission prompts take Option, one of the options read off the pane,
// of a role lab knows; no feedback (Codex's denial takes none: what to do
// differently is a reply after it).
func ValidateAnswer(d *conv.Dialog, a conv.Answer) error {
	if a.ToolID == "" {
		return conv.Errorf(conv.EInvalid, "tool_id is required")
	}
	if d == nil {
		return conv.Errorf(conv.EConflict, "no dialog is pending")
	}
	if d.ToolID != a.ToolID {
		return conv.Errorf(conv.EConflict, "the pending dialog is %s, not %s", d.ToolID, a.ToolID)
	}
	if !d.Pending() {
		return conv.Errorf(conv.EConflict, "the dialog %s is already resolved", d.ToolID)
	}
	if !d.Answerable {
		return conv.Errorf(conv.EConflict, "lab cannot answer this dialog; answer it at the terminal")
	}
	switch d.Kind {
	case conv.DialogQuestion:
		return validateQuestions(d, a)
	case conv.DialogPlan:
		return validatePlan(d.PlanRows, a)
	case conv.DialogPermission:
		return validatePermission(d.Permission, a)
	}
	return conv.Errorf(conv.EConflict, "lab cannot answer a %q dialog", d.Kind)
}

func validateQuestions(d *conv.Dialog, a conv.Answer) error {
	if a.Option != nil || a.Feedback != "" {
		return conv.Errorf(conv.EInvalid, "a question dialog takes answers, not option or feedback")
	}
	if len(a.Answers) != len(d.Questions) {
		return conv.Errorf(conv.EInvalid, "got %d answers for %d questions", len(a.Answers), len(d.Questions))
	}
	for i, q := range d.Questions {
		if err := validateQuestion(q, a.Answers[i]); err != nil {
			return conv.Errorf(conv.EInvalid, "question %d: %s", i+1, err)
		}
	}
	return nil
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
		if err := checkFreeText(qa.OtherText); err != nil {
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
		if err := checkFreeText(a.Feedback); err != nil {
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

func validatePermission(p *conv.Permission, a conv.Answer) error {
	if len(a.Answers) > 0 {
		return conv.Errorf(conv.EInvalid, "a permission prompt takes option, not answers")
	}
	if a.Option == nil {
		return conv.Errorf(conv.EInvalid, "option is required for a permission prompt")
	}
	if p == nil || len(p.Options) == 0 {
		return conv.Errorf(conv.EConflict, "the permission prompt's options are not known yet; try again in a moment")
	}
	o := *a.Option
	if o < 0 || o >= len(p.Options) {
		return conv.Errorf(conv.EInvalid, "option %d is out of range (0..%d)", o, len(p.Options)-1)
	}
	opt := p.Options[o]
	if opt.Role == conv.RoleUnknown || opt.Role == "" {
		return conv.Errorf(conv.EConflict, "lab cannot tell what option %q does on this CLI version; answer it at the terminal", opt.Label)
	}
	if a.Feedback != "" && !opt.Feedback {
		return conv.Errorf(conv.EInvalid, "option %d (%s) takes no feedback; send it as a reply once the turn stops", o, opt.Label)
	}
	return nil
}

// checkFreeText enforces the rules for text typed into a picker row.
func checkFreeText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("text is not valid UTF-8")
	}
	if len(s) > MaxFreeText {
		return fmt.Errorf("text is %d bytes; at most %d", len(s), MaxFreeText)
	}
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("text is blank")
	}
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("text must be a single line")
		}
		if unicode.IsControl(r) {
			return fmt.Errorf("text contains the control character %U", r)
		}
	}
	return nil
}
