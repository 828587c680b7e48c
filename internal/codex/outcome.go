package codex

import (
	"strings"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// What a request_user_input answer records, per question: the chosen
// option's label (or noneLabel), then optionally the notes prefixed with
// notePrefix: {"answers":{"<question id>":{"answers":["Red","user_note:
// warm tones please"]}}}.
const (
	noneLabel  = "None of the above"
	notePrefix = "user_note: "
)

// questionOutcome reads a request_user_input output into one result per
// question, in dialog order, matching answers to questions by id (by
// position when the ids are unknown). An output that is not the answers
// object (the "aborted by user after …" of an Escape or interrupt) is
// dismissed: never pending-looking.
func questionOutcome(qs []conv.Question, ids []string, output string) *conv.Outcome {
	dismissed := &conv.Outcome{Dismissed: true}
	raw := []byte(strings.TrimSpace(output))
	answers := jsonscan.Member(raw, "answers")
	if !jsonscan.IsObject(raw) || !jsonscan.IsObject(answers) {
		return dismissed
	}
	byID := map[string][]string{}
	var order [][]string
	o := jsonscan.ObjectAt(answers)
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		key, _ := jsonscan.Key(k)
		var entries []string
		arr := jsonscan.ArrayAt(jsonscan.Member(v, "answers"))
		for el, ok := arr.Next(); ok; el, ok = arr.Next() {
			entries = append(entries, jsonscan.Str(el))
		}
		byID[key] = entries
		order = append(order, entries)
	}
	results := make([]conv.QuestionResult, len(qs))
	for i, q := range qs {
		var entries []string
		if i < len(ids) && ids[i] != "" {
			entries = byID[ids[i]]
		} else if i < len(order) {
			entries = order[i]
		}
		results[i] = resolveAnswer(q, entries)
	}
	return &conv.Outcome{Results: results}
}

// resolveAnswer resolves one question's recorded entries against its
// labels: a listed label is chosen, notes become the free text, "None of
// the above" chooses nothing, and any other text (free text the CLI may
// record) joins the notes.
func resolveAnswer(q conv.Question, entries []string) conv.QuestionResult {
	res := conv.QuestionResult{Question: q.Question, Chosen: []string{}}
	var other []string
	for _, e := range entries {
		if note, ok := strings.CutPrefix(e, notePrefix); ok {
			other = append(other, note)
			continue
		}
		if e == noneLabel || e == "" {
			continue
		}
		listed := false
		for _, o := range q.Options {
			if o.Label == e {
				listed = true
				break
			}
		}
		if listed {
			res.Chosen = append(res.Chosen, e)
		} else {
			other = append(other, e)
		}
	}
	res.OtherText = strings.Join(other, "\n")
	return res
}

// IntendedOutcome returns the outcome the rollout should record if the
// answer a lands as meant, in the fold's own terms so the two compare
// directly: for questions the chosen label and notes; for plans an
// approval, or the feedback when the answer keeps planning (the plan's
// stay row, see PlanRoles). It returns nil when a does not fit d.
func IntendedOutcome(d *conv.Dialog, a conv.Answer) *conv.Outcome {
	return foldkit.Intended(d, a, func(opt int) *conv.Outcome {
		switch PlanRoleOf(d.PlanRows, opt) {
		case PlanApprove, PlanApproveFresh:
			return &conv.Outcome{Approved: true}
		case PlanStay:
			return &conv.Outcome{Feedback: a.Feedback}
		}
		return nil
	}, intendedResult)
}

// intendedResult is the result an answer to q should record: the chosen
// label (or None of the above) and the notes.
func intendedResult(q conv.Question, qa conv.QuestionAnswer) (conv.QuestionResult, bool) {
	if len(qa.Chosen) > 1 {
		return conv.QuestionResult{}, false
	}
	var entries []string
	if len(qa.Chosen) == 1 {
		c := qa.Chosen[0]
		if c < 0 || c >= len(q.Options) {
			return conv.QuestionResult{}, false
		}
		entries = append(entries, q.Options[c].Label)
	} else {
		entries = append(entries, noneLabel)
	}
	if qa.OtherText != "" {
		entries = append(entries, notePrefix+qa.OtherText)
	}
	return resolveAnswer(q, entries), true
}
