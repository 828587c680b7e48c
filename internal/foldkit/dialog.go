package foldkit

import (
	"time"

	"lab/internal/conv"
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
