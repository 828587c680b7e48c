package foldkit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

func text(s string) conv.Message {
	return conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Text: s}
}

func TestStreamMessagesWindow(t *testing.T) {
	s := NewStream("transcript")
	for i := 1; i <= 10; i++ {
		s.Push(text(fmt.Sprintf("prompt %d", i)))
	}
	tests := []struct {
		after, before, limit int
		want                 []int
		more                 bool
	}{
		{0, 0, 0, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, false},
		{0, 0, 3, []int{8, 9, 10}, true},
		{0, 5, 3, []int{2, 3, 4}, true},
		{0, 3, 5, []int{1, 2}, false},
		{0, 100, 2, []int{9, 10}, true},
		{4, 0, 3, []int{5, 6, 7}, true},
		{4, 7, 0, []int{5, 6}, true},
		{4, 7, 1, []int{5}, true},
		{8, 0, 0, []int{9, 10}, true},
		{10, 0, 5, []int{}, false},
		{0, 1, 5, []int{}, false},
		{6, 6, 5, []int{}, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("after=%d,before=%d,limit=%d", tc.after, tc.before, tc.limit), func(t *testing.T) {
			msgs, more := s.Messages(tc.after, tc.before, tc.limit)
			got := []int{}
			for _, m := range msgs {
				got = append(got, m.Seq)
				if m.Text != fmt.Sprintf("prompt %d", m.Seq) {
					t.Errorf("seq %d holds %q", m.Seq, m.Text)
				}
			}
			if !slices.Equal(got, tc.want) || more != tc.more {
				t.Errorf("got seqs %v more=%v; want %v more=%v", got, more, tc.want, tc.more)
			}
		})
	}
}

// Seqs and hashes hold across chunk boundaries, and a change behind the
// mark is reported once, at its lowest seq.
func TestStreamPushAndBackpatch(t *testing.T) {
	s := NewStream("transcript")
	n := 2*chunk + 5
	for i := range n {
		if got := s.Push(text(fmt.Sprint(i))); got != i {
			t.Fatalf("Push = %d; want %d", got, i)
		}
	}
	if s.Len() != n || s.At(chunk).Seq != chunk+1 || s.At(chunk).Text != fmt.Sprint(chunk) {
		t.Fatalf("Len %d, message at %d: %+v", s.Len(), chunk, *s.At(chunk))
	}
	s.TakeBackpatch()
	for _, i := range []int{chunk + 3, 7, 2 * chunk} {
		s.At(i).Text = "changed"
		s.Changed(i)
	}
	s.Push(text("new"))
	s.At(n).Text = "new, changed" // beyond the mark: new to the reader, no back-patch
	s.Changed(n)
	if got := s.TakeBackpatch(); got != 8 {
		t.Errorf("TakeBackpatch = %d; want 8", got)
	}
	if got := s.TakeBackpatch(); got != 0 {
		t.Errorf("TakeBackpatch again = %d; want 0", got)
	}
	m := *s.At(7)
	m.SetHash()
	if m.ContentHash != s.At(7).ContentHash {
		t.Error("Changed did not re-stamp the hash")
	}
}

func TestStreamCallsAndDialogs(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := NewStream("rollout")
	meant := map[string]*conv.Outcome{"q1": {Dismissed: true}, "p1": {Approved: true}}
	s.SetIntents(func(id string) (*conv.Outcome, bool) { o, ok := meant[id]; return o, ok })
	s.SetTail(conv.StateWorking)
	tool := s.PushTool(&conv.ToolCall{ID: "t1", Name: "exec", Status: conv.ToolRunning}, at)
	s.PushTool(&conv.ToolCall{ID: "t2", Name: "search", Status: conv.ToolOK}, at) // complete when written
	q := s.PushDialog(&conv.Dialog{ToolID: "q1", Kind: conv.DialogQuestion}, at)
	p := s.PushDialog(&conv.Dialog{ToolID: "p1", Kind: conv.DialogPlan}, at)

	if s.State() != conv.StateQuestion || s.PendingDialog().ToolID != "q1" {
		t.Fatalf("State %s, pending %+v; want question q1", s.State(), s.PendingDialog())
	}
	s.PendingDialog().ToolID = "edited"
	if r := s.Running(); r == nil || r.ID != "t1" {
		t.Fatalf("Running = %+v; want t1", r)
	}
	s.Running().Name = "edited"
	if s.At(q).Dialog.ToolID != "q1" || s.At(tool).Tool.Name != "exec" {
		t.Error("PendingDialog or Running handed out the stream's own value")
	}

	// The plans stay; the question goes, as lab meant.
	s.ResolvePending(at, func(d *conv.Dialog) *conv.Outcome {
		if d.Kind == conv.DialogPlan {
			return nil
		}
		return &conv.Outcome{Dismissed: true}
	})
	if d := s.PendingDialog(); d == nil || d.ToolID != "p1" || !s.Resolved("q1") || s.At(q).Dialog.Answerable {
		t.Fatalf("after dismissing the question: pending %+v, q1 resolved %v", d, s.Resolved("q1"))
	}
	s.Resolve(p, &conv.Outcome{Feedback: "smaller"}, at)
	last := s.At(s.Len() - 1)
	if s.State() != conv.StateWorking || last.Lifecycle == nil || !strings.Contains(last.Lifecycle.Text, "the rollout recorded a rejection") {
		t.Fatalf("State %s, last %+v; want working and the desync warning", s.State(), last)
	}

	if i, ok := s.ResultFor("t1"); !ok || i != tool {
		t.Fatalf("ResultFor(t1) = %d, %v", i, ok)
	}
	s.At(tool).Tool.Status = conv.ToolOK
	s.Settle(tool)
	if s.Running() != nil || !s.Resolved("t1") || !s.Resolved("t2") {
		t.Errorf("after t1's result: running %+v, resolved %v %v", s.Running(), s.Resolved("t1"), s.Resolved("t2"))
	}
	if _, ok := s.ResultFor("ghost"); ok || !s.Resolved("ghost") || s.Resolved("never") {
		t.Error("an orphan result is not remembered as resolved")
	}
}

// A clone shares nothing with its original.
func TestStreamClone(t *testing.T) {
	s := NewStream("transcript")
	s.PushTool(&conv.ToolCall{ID: "t1", Status: conv.ToolRunning, Decision: &conv.Decision{}}, time.Time{})
	s.PushDialog(&conv.Dialog{ToolID: "q1", Kind: conv.DialogQuestion, Questions: []conv.Question{{Question: "?"}}}, time.Time{})
	c := s.Clone()
	c.At(0).Tool.Decision.Scope = "changed"
	c.At(1).Dialog.Questions[0].Question = "changed"
	c.Settle(0)
	c.ResolvePending(time.Time{}, func(*conv.Dialog) *conv.Outcome { return &conv.Outcome{Dismissed: true} })
	c.Push(text("more"))
	if s.At(0).Tool.Decision.Scope != "" || s.At(1).Dialog.Questions[0].Question != "?" || s.Running() == nil || s.PendingDialog() == nil || s.Len() != 2 {
		t.Error("changing the clone changed the original")
	}
}
