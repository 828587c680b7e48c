package foldkit

import (
	"time"

	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// Resolve stamps the outcome of the dialog at index i, retires it from
// the pending set, and checks it against what lab meant to answer.
func (s *Stream) Resolve(i int, out *conv.Outcome, t time.Time) {
	d := s.At(i).Dialog
	d.Outcome = out
	d.Answerable = false
	s.Changed(i)
	for k, p := range s.pending {
		if p == i {
			s.pending = append(s.pending[:k], s.pending[k+1:]...)
			break
		}
	}
	s.checkIntent(d, t)
}

// ResolvePending resolves pending dialogs, oldest first: each with the
// outcome pick gives it, or none (it stays pending) when pick returns
// nil. It is how a record that shows pickers gone (a prompt, an
// interrupt) settles them.
func (s *Stream) ResolvePending(t time.Time, pick func(d *conv.Dialog) *conv.Outcome) {
	for k := 0; k < len(s.pending); {
		i := s.pending[k]
		out := pick(s.At(i).Dialog)
		if out == nil {
			k++
			continue
		}
		s.Resolve(i, out, t) // removes it from s.pending
	}
}

// QuestionsAnswerable says whether lab can drive a question picker: at
// least one question, each with a text and at least one option to find
// rows by.
func QuestionsAnswerable(qs []conv.Question) bool {
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

// QuestionDialog is the dialog of question tool call id from its input
// (see Questions), with the questions' ids.
func QuestionDialog(id string, input []byte) (*conv.Dialog, []string) {
	qs, ids := Questions(input)
	return &conv.Dialog{ToolID: id, Kind: conv.DialogQuestion, Questions: qs, Answerable: QuestionsAnswerable(qs)}, ids
}

// Questions reads a question tool's input, {"questions":[{"id","question",
// "header","multiSelect","options":[{"label","description"}]}]} (each CLI
// writes the keys it knows: Claude Code no id, Codex no multiSelect), and
// returns the questions and their ids ("" where none), which some CLIs
// file the recorded answers under. Texts are kept whole.
func Questions(input []byte) ([]conv.Question, []string) {
	qs := []conv.Question{}
	var ids []string
	arr := jsonscan.ArrayAt(jsonscan.Member(input, "questions"))
	for raw, ok := arr.Next(); ok; raw, ok = arr.Next() {
		q := conv.Question{Options: []conv.Option{}}
		var id string
		var opts []byte
		jsonscan.Members(raw, func(k, v []byte) {
			switch string(k) {
			case "id":
				id = jsonscan.Str(v)
			case "question":
				q.Question = jsonscan.Str(v)
			case "header":
				q.Header = jsonscan.Str(v)
			case "multiSelect":
				q.MultiSelect = jsonscan.True(v)
			case "options":
				opts = v
			}
		})
		oa := jsonscan.ArrayAt(opts)
		for raw, ok := oa.Next(); ok; raw, ok = oa.Next() {
			q.Options = append(q.Options, conv.Option{
				Label:       jsonscan.Str(jsonscan.Member(raw, "label")),
				Description: jsonscan.Str(jsonscan.Member(raw, "description")),
			})
		}
		qs = append(qs, q)
		ids = append(ids, id)
	}
	return qs, ids
}
