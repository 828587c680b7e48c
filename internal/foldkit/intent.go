package foldkit

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"lab/internal/conv"
)

// SetIntents installs the lookup of the outcomes lab meant when it
// answered, used to warn when the file recorded something else. It is
// called with the caller's lock held, so it must not call back.
func (s *Stream) SetIntents(fn func(toolID string) (*conv.Outcome, bool)) { s.intents = fn }

// Intended is the outcome a file should record if answer a to d lands as
// meant, in the fold's own terms (an adapter's IntendedOutcome): a plan
// answer needs an option of at least 0, which plan reads; a question
// answer needs one answer per question, each read by question. It is nil
// when a does not fit d (plan or question report that by nil or false).
func Intended(d *conv.Dialog, a conv.Answer, plan func(opt int) *conv.Outcome, question func(q conv.Question, qa conv.QuestionAnswer) (conv.QuestionResult, bool)) *conv.Outcome {
	if d == nil {
		return nil
	}
	switch d.Kind {
	case conv.DialogPlan:
		if a.Option == nil || *a.Option < 0 {
			return nil
		}
		return plan(*a.Option)
	case conv.DialogQuestion:
		if len(a.Answers) != len(d.Questions) {
			return nil
		}
		results := make([]conv.QuestionResult, len(d.Questions))
		for i, q := range d.Questions {
			r, ok := question(q, a.Answers[i])
			if !ok {
				return nil
			}
			results[i] = r
		}
		return &conv.Outcome{Results: results}
	}
	return nil
}

// checkIntent compares a dialog's freshly folded outcome with what lab
// meant to answer (SetIntents) and, when they differ, appends a warning
// right after the resolution. It is advisory: the recorded outcome stands.
// The warning depends only on the folded bytes and the intents, so a
// re-fold with the same intents yields the same stream.
func (s *Stream) checkIntent(d *conv.Dialog, t time.Time) {
	if s.intents == nil || d.ToolID == "" {
		return
	}
	want, ok := s.intents(d.ToolID)
	if !ok || want == nil {
		return
	}
	if OutcomesAgree(d.Kind, want, d.Outcome) {
		return
	}
	what := "question"
	if d.Kind == conv.DialogPlan {
		what = "plan"
	}
	s.PushLifecycle(conv.LevelWarning, fmt.Sprintf("Answer desync on the %s %s: lab sent %s; the %s recorded %s.",
		what, d.ToolID, describeOutcome(d.Kind, want), s.source, describeOutcome(d.Kind, d.Outcome)), t)
}

// OutcomesAgree compares two outcomes in what they show: dismissed or not;
// for plans approval and (on rejection) feedback; for questions each
// result's chosen labels in order and free text.
func OutcomesAgree(kind conv.DialogKind, a, b *conv.Outcome) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Dismissed || b.Dismissed {
		return a.Dismissed == b.Dismissed
	}
	if kind == conv.DialogPlan {
		return a.Approved == b.Approved && (a.Approved || a.Feedback == b.Feedback)
	}
	if len(a.Results) != len(b.Results) {
		return false
	}
	for i := range a.Results {
		ra, rb := a.Results[i], b.Results[i]
		if !slices.Equal(ra.Chosen, rb.Chosen) || ra.OtherText != rb.OtherText {
			return false
		}
	}
	return true
}

// describeOutcome renders an outcome in a short human form for a warning.
func describeOutcome(kind conv.DialogKind, o *conv.Outcome) string {
	switch {
	case o == nil:
		return "nothing"
	case o.Dismissed:
		return "a dismissal"
	case kind == conv.DialogPlan && o.Approved:
		return "an approval"
	case kind == conv.DialogPlan:
		return fmt.Sprintf("a rejection with feedback %q", o.Feedback)
	}
	parts := make([]string, 0, len(o.Results))
	for _, r := range o.Results {
		ans := make([]string, 0, len(r.Chosen)+1)
		for _, c := range r.Chosen {
			ans = append(ans, fmt.Sprintf("%q", c))
		}
		if r.OtherText != "" {
			ans = append(ans, fmt.Sprintf("other %q", r.OtherText))
		}
		if len(ans) == 0 {
			ans = append(ans, "no answer")
		}
		parts = append(parts, fmt.Sprintf("%q → %s", r.Question, strings.Join(ans, ", ")))
	}
	return strings.Join(parts, "; ")
}
