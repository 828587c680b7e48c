package claude

import (
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// foldQuestionDialog builds the dialog of an AskUserQuestion tool_use from
// its input {"questions":[{"question","header","multiSelect","options":
// [{"label","description"}]}]}. Texts are kept whole: the question text is
// also the key the recorded answers are filed under.
func foldQuestionDialog(id string, input []byte) *conv.Dialog {
	d, _ := foldkit.QuestionDialog(id, input)
	return d
}

// foldPlanDialog builds the dialog of an ExitPlanMode tool_use. The plan is
// the full markdown from the input, never truncated; the picker rows depend
// on the CLI version and are left for the live layer.
func foldPlanDialog(id string, input []byte) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogPlan, Plan: jsonscan.Str(jsonscan.Member(input, "plan")), Answerable: true}
}

// resolveDialog stamps a dialog's outcome (foldkit's Resolve) and, for an
// approved plan, watches the lines after it for the approval's mode.
func (f *Fold) resolveDialog(i int, out *conv.Outcome, t time.Time) {
	f.Resolve(i, out, t)
	if d := f.At(i).Dialog; d.Kind == conv.DialogPlan && out != nil && out.Approved {
		f.watchApproval(i)
	}
}

// dismissPending resolves every pending dialog as dismissed: something
// (a prompt, an interrupt) shows its picker is gone without an answer.
func (f *Fold) dismissPending(t time.Time) {
	f.ResolvePending(t, func(*conv.Dialog) *conv.Outcome { return &conv.Outcome{Dismissed: true} })
}
