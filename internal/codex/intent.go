package codex

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"lab/internal/conv"
)

// checkIntent compares a dialog's freshly folded outcome with what lab
// meant to answer (SetIntents) and, when they differ, appends a warning
// right after the resolution. It is advisory: the recorded outcome stands.
// The warning depends only on the folded bytes and the intents, so a
// re-fold with the same intents yields the same stream.
func (f *Fold) checkIntent(d *conv.Dialog, t time.Time) {
	if f.intents == nil || d.ToolID == "" {
		return
	}
	want, ok := f.intents(d.ToolID)
	if !ok || want == nil {
		return
	}
	if outcomesAgree(d.Kind, want, d.Outcome) {
		return
	}
	what := "question"
	if d.Kind == conv.DialogPlan {
		what = "plan"
	}
	f.pushLifecycle(conv.LevelWarning, fmt.Sprintf("Answer desync on the %s %s: lab sent %s; the rollout recorded %s.",
		what, d.ToolID, describeOutcome(d.Kind, want), describeOutcome(d.Kind, d.Outcome)), t)
}

// outcomesAgree compares two outcomes in what they show: dismissed or not;
// for plans approval and (on rejection) feedback; for questions each
// result's chosen labels in order and free text.
func outcomesAgree(kind conv.DialogKind, a, b *conv.Outcome) bool {
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
