package clikit

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
)

// MaxFreeText bounds the text lab types into a picker (a question's free
// text or notes) or sends as feedback, in bytes.
const MaxFreeText = 4096

// CheckTarget checks that a is aimed at d and that lab can answer d: a
// tool_id (EInvalid without), then a pending dialog of that id lab can
// drive (EConflict otherwise).
func CheckTarget(d *conv.Dialog, a conv.Answer) error {
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
	return nil
}

// Rules are a CLI's own checks of an answer to each kind of dialog.
type Rules struct {
	Question   func(conv.Question, conv.QuestionAnswer) error // one question's answer (see CheckQuestions)
	Plan       func(d *conv.Dialog, a conv.Answer) error
	Permission func(p *conv.Permission, a conv.Answer) error
}

// CheckAnswer checks a against d: its target (CheckTarget), then by d's
// kind with the CLI's rules. A kind lab cannot answer is EConflict.
func CheckAnswer(d *conv.Dialog, a conv.Answer, r Rules) error {
	if err := CheckTarget(d, a); err != nil {
		return err
	}
	switch d.Kind {
	case conv.DialogQuestion:
		return CheckQuestions(d, a, r.Question)
	case conv.DialogPlan:
		return r.Plan(d, a)
	case conv.DialogPermission:
		return r.Permission(d.Permission, a)
	}
	return conv.Errorf(conv.EConflict, "lab cannot answer a %q dialog", d.Kind)
}

// CheckQuestions checks an answer to a question dialog: answers only, one
// per question, in order, each passing the CLI's own check (whose error
// is reported as EInvalid with the question's number).
func CheckQuestions(d *conv.Dialog, a conv.Answer, check func(conv.Question, conv.QuestionAnswer) error) error {
	if a.Option != nil || a.Feedback != "" {
		return conv.Errorf(conv.EInvalid, "a question dialog takes answers, not option or feedback")
	}
	if len(a.Answers) != len(d.Questions) {
		return conv.Errorf(conv.EInvalid, "got %d answers for %d questions", len(a.Answers), len(d.Questions))
	}
	for i, q := range d.Questions {
		if err := check(q, a.Answers[i]); err != nil {
			return conv.Errorf(conv.EInvalid, "question %d: %s", i+1, err)
		}
	}
	return nil
}

// CheckFreeText enforces the rules for text typed into a picker: valid
// UTF-8, at most MaxFreeText bytes, not blank, one line (the TUIs record
// a pasted newline as a carriage return, and a newline in a picker row
// breaks the row) without control characters.
func CheckFreeText(s string) error {
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

// PermissionOption returns the option of the permission prompt p that a
// chooses, and its index, checking that a gives no answers (EInvalid with
// the message noAnswers, each CLI's own), an option is given (EInvalid),
// the prompt's options are known (EConflict: the pane has not shown them
// yet), the option is one of them (EInvalid) and lab knows what it does
// (EConflict). Feedback is the caller's to check.
func PermissionOption(p *conv.Permission, a conv.Answer, noAnswers string) (conv.PermissionOption, int, error) {
	if len(a.Answers) > 0 {
		return conv.PermissionOption{}, 0, conv.Errorf(conv.EInvalid, "%s", noAnswers)
	}
	if a.Option == nil {
		return conv.PermissionOption{}, 0, conv.Errorf(conv.EInvalid, "option is required for a permission prompt")
	}
	if p == nil || len(p.Options) == 0 {
		return conv.PermissionOption{}, 0, conv.Errorf(conv.EConflict, "the permission prompt's options are not known yet; try again in a moment")
	}
	o := *a.Option
	if o < 0 || o >= len(p.Options) {
		return conv.PermissionOption{}, 0, conv.Errorf(conv.EInvalid, "option %d is out of range (0..%d)", o, len(p.Options)-1)
	}
	opt := p.Options[o]
	if opt.Role == conv.RoleUnknown || opt.Role == "" {
		return conv.PermissionOption{}, 0, conv.Errorf(conv.EConflict, "lab cannot tell what option %q does on this CLI version; answer it at the terminal", opt.Label)
	}
	return opt, o, nil
}
