package claude

import (
	"time"

	"lab/internal/conv"
)

// foldQuestionDialog builds the dialog of an AskUserQuestion tool_use from
// its input {"questions":[{"question","header","multiSelect","options":
// [{"label","description"}]}]}. Texts are kept whole: the question text is
// also the key the recorded answers are filed under.
func foldQuestionDialog(id string, input []byte) *conv.Dialog {
	d := &conv.Dialog{ToolID: id, Kind: conv.DialogQuestion, Questions: []conv.Question{}}
	arr := jsArrayAt(jsMember(input, "questions"))
	for {
		raw, ok := arr.next()
		if !ok {
			break
		}
		q := conv.Question{Options: []conv.Option{}}
		o := jsObjectAt(raw)
		var opts []byte
		for {
			k, v, ok := o.next()
			if !ok {
				break
			}
			switch string(k) {
			case "question":
				q.Question = jsStr(v)
			case "header":
				q.Header = jsStr(v)
			case "multiSelect":
				q.MultiSelect = jsTrue(v)
			case "options":
				opts = v
			}
		}
		oa := jsArrayAt(opts)
		for {
			raw, ok := oa.next()
			if !ok {
				break
			}
			q.Options = append(q.Options, conv.Option{
				Label:       jsStr(jsMember(raw, "label")),
				Description: jsStr(jsMember(raw, "description")),
			})
		}
		d.Questions = append(d.Questions, q)
	}
	d.Answerable = foldQuestionsAnswerable(d.Questions)
	return d
}

// foldQuestionsAnswerable says whether lab can drive the picker: at least
// one question, each with a text and at least one option to count rows by.
func foldQuestionsAnswerable(qs []conv.Question) bool {
	if len(qs) == 0 {
		return false
	}
	for _, q := range qs {
		if q.Question == "" || len(q.Options) == 0 {
			return false
		}
	}
	return true
}

// foldPlanDialog builds the dialog of an ExitPlanMode tool_use. The plan is
// the full markdown from the input, never truncated; the picker rows depend
// on the CLI version and are left for the live layer.
func foldPlanDialog(id string, input []byte) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogPlan, Plan: jsStr(jsMember(input, "plan")), Answerable: true}
}

// resolveDialog stamps a dialog's outcome, retires it from the pending
// set, and checks it against what lab meant to answer.
func (f *Fold) resolveDialog(i int, out *conv.Outcome, t time.Time) {
	d := f.at(i).Dialog
	d.Outcome = out
	d.Answerable = false
	f.changed(i)
	if d.Kind == conv.DialogPlan && out != nil && out.Approved {
		f.watchApproval(i)
	}
	for k, p := range f.pending {
		if p == i {
			f.pending = append(f.pending[:k], f.pending[k+1:]...)
			break
		}
	}
	f.checkIntent(d, t)
}

// dismissPending resolves every pending dialog as dismissed: something
// (a prompt, an interrupt) shows its picker is gone without an answer.
func (f *Fold) dismissPending(t time.Time) {
	for len(f.pending) > 0 {
		f.resolveDialog(f.pending[0], &conv.Outcome{Dismissed: true}, t)
	}
}
