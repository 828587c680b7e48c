package claude

import (
	"strings"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// planFeedbackMarker precedes the operator's feedback in a rejected plan's
// recorded resolution.
const planFeedbackMarker = "the user said:\n"

// foldResolution is what the line carrying a dialog's tool_result recorded:
// the raw top-level toolUseResult (nil when absent), toolDenialKind, the
// block's is_error, and the raw tool_result content (read only as a last
// resort, when toolUseResult is absent: it is prose that changes between
// versions).
type foldResolution struct {
	result  []byte
	denial  string
	isError bool
	content []byte
}

// deriveOutcome turns a recorded resolution into the dialog's display
// outcome. It never returns nil: a resolution without a readable answer is
// dismissed, never pending-looking.
func deriveOutcome(d *conv.Dialog, r foldResolution) *conv.Outcome {
	if d.Kind == conv.DialogPlan {
		return planOutcome(r)
	}
	return questionOutcome(d.Questions, r)
}

// questionOutcome reads toolUseResult.answers ({question text: answer}),
// one result per question in dialog order. A denial, an error, or an empty
// answers map (the unattended timeout) is dismissed.
func questionOutcome(qs []conv.Question, r foldResolution) *conv.Outcome {
	dismissed := &conv.Outcome{Dismissed: true}
	if r.denial != "" || r.isError || !jsonscan.IsObject(r.result) {
		return dismissed
	}
	var answersRaw, response []byte
	o := jsonscan.ObjectAt(r.result)
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		switch string(k) {
		case "answers":
			answersRaw = v
		case "response":
			response = v
		}
	}
	answers := map[string][]byte{}
	ao := jsonscan.ObjectAt(answersRaw)
	for {
		k, v, ok := ao.Next()
		if !ok {
			break
		}
		key, ok := jsonscan.String(append(append([]byte{'"'}, k...), '"'))
		if ok {
			answers[key] = v
		}
	}
	results := make([]conv.QuestionResult, len(qs))
	if len(answers) == 0 {
		// "response" is free text typed instead of picking; with no answers
		// at all it is the whole reply, shown on the first question.
		text := jsonscan.Str(response)
		if strings.TrimSpace(text) == "" || len(qs) == 0 {
			return dismissed
		}
		for i, q := range qs {
			results[i] = conv.QuestionResult{Question: q.Question, Chosen: []string{}}
		}
		results[0].OtherText = text
		return &conv.Outcome{Results: results}
	}
	for i, q := range qs {
		raw, ok := answers[q.Question]
		switch {
		case !ok:
			results[i] = conv.QuestionResult{Question: q.Question, Chosen: []string{}}
		case jsonscan.IsString(raw):
			results[i] = resolveAnswer(q, jsonscan.Str(raw))
		default:
			// Not the documented string; a list of labels is read as the
			// segments of a multi-select record.
			var segs []string
			arr := jsonscan.ArrayAt(raw)
			for el, ok := arr.Next(); ok; el, ok = arr.Next() {
				if s, ok := jsonscan.String(el); ok {
					segs = append(segs, s)
				}
			}
			results[i] = resolveSegments(q, segs)
		}
	}
	return &conv.Outcome{Results: results}
}

// resolveAnswer resolves one recorded answer string against the question's
// labels. Single-select: a label by equality, else free text verbatim.
// Multi-select: the ", "-joined record in toggle order.
func resolveAnswer(q conv.Question, ans string) conv.QuestionResult {
	if !q.MultiSelect {
		for _, o := range q.Options {
			if o.Label == ans {
				return conv.QuestionResult{Question: q.Question, Chosen: []string{ans}}
			}
		}
		return conv.QuestionResult{Question: q.Question, Chosen: []string{}, OtherText: ans}
	}
	if ans == "" {
		return conv.QuestionResult{Question: q.Question, Chosen: []string{}}
	}
	return resolveSegments(q, strings.Split(ans, ", "))
}

// resolveSegments matches record segments to labels left to right, taking
// the longest run of segments that re-joins to a label (labels may contain
// ", " themselves). Segments matching no label are the free text, re-joined
// with ", " as the CLI joined them.
func resolveSegments(q conv.Question, segs []string) conv.QuestionResult {
	res := conv.QuestionResult{Question: q.Question, Chosen: []string{}}
	labels := make(map[string]bool, len(q.Options))
	longest := 1
	for _, o := range q.Options {
		labels[o.Label] = true
		longest = max(longest, strings.Count(o.Label, ", ")+1)
	}
	var rest []string
	for i := 0; i < len(segs); {
		n := 0
		for k := min(longest, len(segs)-i); k >= 1; k-- {
			if labels[strings.Join(segs[i:i+k], ", ")] {
				n = k
				break
			}
		}
		if n == 0 {
			rest = append(rest, segs[i])
			i++
			continue
		}
		res.Chosen = append(res.Chosen, strings.Join(segs[i:i+n], ", "))
		i += n
	}
	res.OtherText = strings.Join(rest, ", ")
	return res
}

// planOutcome reads an ExitPlanMode resolution: an object result is an
// approval; a rejection carrying "the user said:\n" has the text after the
// last such marker as feedback; any other rejection is dismissed.
func planOutcome(r foldResolution) *conv.Outcome {
	if r.result != nil && jsonscan.IsObject(r.result) && !r.isError && r.denial == "" {
		return &conv.Outcome{Approved: true}
	}
	var text string
	if s, ok := jsonscan.String(r.result); ok {
		text = s
	} else if r.result == nil {
		text, _ = foldOutput(r.content, 1<<20)
		if !r.isError && r.denial == "" && strings.HasPrefix(strings.TrimSpace(text), "User has approved your plan") {
			return &conv.Outcome{Approved: true}
		}
	}
	if i := strings.LastIndex(text, planFeedbackMarker); i >= 0 {
		return &conv.Outcome{Feedback: text[i+len(planFeedbackMarker):]}
	}
	return &conv.Outcome{Dismissed: true}
}

// IntendedOutcome returns the outcome the transcript should record if the
// answer a lands as meant, in the fold's own terms so the two compare
// directly: for questions the chosen labels (by index, in toggle order)
// and free text, re-read through the same resolution as a recorded answer;
// for plans the last picker row (the feedback row) is a rejection carrying
// the feedback and any other row an approval. With d.PlanRows unknown, a
// plan answer with feedback counts as a rejection. It returns nil when a
// does not fit d (wrong count, index out of range, no plan option).
func IntendedOutcome(d *conv.Dialog, a conv.Answer) *conv.Outcome {
	return foldkit.Intended(d, a, func(opt int) *conv.Outcome {
		rows := len(d.PlanRows)
		if rows > 0 && opt >= rows {
			return nil
		}
		if (rows > 0 && opt == rows-1) || (rows == 0 && a.Feedback != "") {
			return &conv.Outcome{Feedback: a.Feedback}
		}
		return &conv.Outcome{Approved: true}
	}, intendedResult)
}

// intendedResult is the result an answer to q should record: the chosen
// labels (by index, in toggle order) and free text, re-read through the
// same resolution as a recorded answer.
func intendedResult(q conv.Question, qa conv.QuestionAnswer) (conv.QuestionResult, bool) {
	segs := make([]string, 0, len(qa.Chosen)+1)
	for _, c := range qa.Chosen {
		if c < 0 || c >= len(q.Options) {
			return conv.QuestionResult{}, false
		}
		segs = append(segs, q.Options[c].Label)
	}
	if !q.MultiSelect {
		if len(segs) > 1 {
			return conv.QuestionResult{}, false
		}
		rec := qa.OtherText
		if len(segs) == 1 {
			rec = segs[0]
		}
		return resolveAnswer(q, rec), true
	}
	if qa.OtherText != "" {
		segs = append(segs, qa.OtherText)
	}
	return resolveAnswer(q, strings.Join(segs, ", ")), true
}

// foldDecision reads how a tool call's permission prompt was answered from
// the line carrying its result (2.1.328: permissionDecision {decision,
// source, grantScope}, userFeedback; older: toolDenialKind alone). Calls
// decided without asking the operator (a saved rule, the mode, a hook)
// have no decision.
func foldDecision(ln *foldLine) *conv.Decision {
	feedback := jsonscan.Str(ln.userFeedback)
	if feedback == "" {
		if s, ok := jsonscan.String(ln.toolUseResult); ok {
			if i := strings.LastIndex(s, planFeedbackMarker); i >= 0 {
				feedback = s[i+len(planFeedbackMarker):]
			}
		}
	}
	if ln.permDecision == nil {
		if jsonscan.Str(ln.toolDenialKind) == "user-rejected" {
			return &conv.Decision{Feedback: feedback}
		}
		return nil
	}
	var decision, source string
	o := jsonscan.ObjectAt(ln.permDecision)
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		switch string(k) {
		case "decision":
			decision = jsonscan.Str(v)
		case "source":
			source = jsonscan.Str(v)
		}
	}
	switch {
	case decision == "accept" && source == "user_temporary":
		return &conv.Decision{Allowed: true, Scope: "once"}
	case decision == "accept" && source == "user_permanent":
		return &conv.Decision{Allowed: true, Scope: "always"}
	case decision == "reject" && strings.HasPrefix(source, "user"):
		return &conv.Decision{Feedback: feedback}
	case decision == "reject" && jsonscan.Str(ln.toolDenialKind) == "user-rejected":
		return &conv.Decision{Feedback: feedback}
	}
	return nil
}
