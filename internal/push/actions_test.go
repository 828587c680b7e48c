package push

import (
	"context"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

func permission(id string, opts ...conv.PermissionOption) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogPermission, Answerable: true,
		Permission: &conv.Permission{Tool: "Bash", Command: "rm -rf build", Options: opts}}
}

var (
	allowOnce   = conv.PermissionOption{Label: "Yes", Role: conv.RoleAllowOnce}
	allowAlways = conv.PermissionOption{Label: "Yes, and don't ask again for rm", Role: conv.RoleAllowAlways}
	deny        = conv.PermissionOption{Label: "No, and tell the agent what to do differently", Role: conv.RoleDeny, Feedback: true}
)

func TestChoicesOnlyForSimpleDialogs(t *testing.T) {
	two := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{{Question: "Go on?", Options: []conv.Option{{Label: "Yes"}, {Label: "Not yet"}}}}}
	three := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{{Question: "DB?", Options: []conv.Option{{Label: "A"}, {Label: "B"}, {Label: "C"}}}}}
	multi := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{{Question: "Which?", MultiSelect: true, Options: []conv.Option{{Label: "A"}, {Label: "B"}}}}}
	form := &conv.Dialog{ToolID: "q", Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{two.Questions[0], two.Questions[0]}}
	plan := &conv.Dialog{ToolID: "p", Kind: conv.DialogPlan, Answerable: true, Plan: "# Plan"}
	unanswerable := permission("t", allowOnce, deny)
	unanswerable.Answerable = false
	tests := []struct {
		name string
		d    *conv.Dialog
		want []string // titles
		opts []int    // permission option indexes
	}{
		{"permission: allow once and deny, never always", permission("t", allowOnce, allowAlways, deny), []string{"Allow once", "Deny"}, []int{0, 2}},
		{"permission without a deny row", permission("t", allowOnce, allowAlways), nil, nil},
		{"permission lab cannot answer", unanswerable, nil, nil},
		{"a question of two options", two, []string{"Yes", "Not yet"}, nil},
		{"a question of three options", three, nil, nil},
		{"multi-select", multi, nil, nil},
		{"a form", form, nil, nil},
		{"a plan", plan, nil, nil},
		{"nothing", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := choices(tt.d)
			var titles []string
			for i, c := range got {
				titles = append(titles, c.title)
				if tt.opts != nil && *c.answer.Option != tt.opts[i] {
					t.Errorf("choice %d answers option %d; want %d", i, *c.answer.Option, tt.opts[i])
				}
				if tt.d.Kind == conv.DialogQuestion && (len(c.answer.Answers) != 1 || c.answer.Answers[0].Chosen[0] != i) {
					t.Errorf("choice %d answers %+v", i, c.answer.Answers)
				}
			}
			if len(titles) != len(tt.want) {
				t.Fatalf("got %q; want %q", titles, tt.want)
			}
			for i := range titles {
				if titles[i] != tt.want[i] {
					t.Fatalf("got %q; want %q", titles, tt.want)
				}
			}
		})
	}
}

// A blocked push to a device that opted in to content carries one token
// per answer; the first redeemed answers through the chat layer and burns
// the other; a device without content gets no actions at all.
func TestNotifierActionsAnswerOnceWithContent(t *testing.T) {
	f := newNotifierFixture(t, nil)
	_, plain := f.device(t, "phone", store.DefaultPushOptions)
	_, chatty := f.device(t, "desk", store.PushOptions{Blocked: true, IncludeContent: true})
	f.change("r1", conv.StateQuestion, permission("t1", allowOnce, allowAlways, deny))
	f.decisions(t, 2)
	got := f.received(t, 2)
	if a := got[plain.Endpoint].Actions; len(a) != 0 {
		t.Fatalf("a push without content offered %+v", a)
	}
	acts := got[chatty.Endpoint].Actions
	if len(acts) != 2 || acts[0].Title != "Allow once" || acts[1].Title != "Deny" || acts[0].Token == acts[1].Token || len(acts[0].Token) < 40 {
		t.Fatalf("actions: %+v; want allow once and deny, each with its own token", acts)
	}

	ctx := context.Background()
	res, err := f.n.Act(ctx, acts[0].Token)
	if err != nil || res.RunID != "r1" || res.URL != "/runs/r1" {
		t.Fatalf("allow: got %+v, %v", res, err)
	}
	if ans := f.runs.answered(); len(ans) != 1 || ans[0].ToolID != "t1" || ans[0].Option == nil || *ans[0].Option != 0 {
		t.Fatalf("answers: %+v; want option 0 of t1", ans)
	}
	for _, tok := range []string{acts[0].Token, acts[1].Token} {
		if _, err := f.n.Act(ctx, tok); conv.KindOf(err) != conv.ENotFound {
			t.Fatalf("a token of an answered notification: got %v; want not found", err)
		}
	}
	if n := len(f.runs.answered()); n != 1 {
		t.Fatalf("%d answers; want still 1", n)
	}
	if _, err := f.n.Act(ctx, "forged"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("a forged token: got %v; want not found", err)
	}
}

// A token whose dialog changed, or whose option moved, answers nothing.
func TestNotifierActionsRefuseAStaleDialog(t *testing.T) {
	f := newNotifierFixture(t, nil)
	_, sub := f.device(t, "desk", store.PushOptions{Blocked: true, IncludeContent: true})
	ctx := context.Background()

	f.change("r1", conv.StateQuestion, permission("t1", allowOnce, deny))
	f.decisions(t, 1)
	first := f.received(t, 1)[sub.Endpoint].Actions
	// Answered at the terminal; another prompt waits now.
	f.change("r1", conv.StateQuestion, permission("t2", allowOnce, deny))
	f.decisions(t, 1)
	second := f.received(t, 1)[sub.Endpoint].Actions
	if _, err := f.n.Act(ctx, first[0].Token); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("the old prompt's allow: got %v; want a conflict", err)
	}

	// Same prompt, but the CLI now shows other rows at that index.
	f.runs.set("r1", conv.StateQuestion, permission("t2", deny, allowOnce))
	if _, err := f.n.Act(ctx, second[0].Token); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("an option that moved: got %v; want a conflict", err)
	}
	if ans := f.runs.answered(); len(ans) != 0 {
		t.Fatalf("answers: %+v; want none", ans)
	}
}

func TestActionTokensExpire(t *testing.T) {
	now := time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)
	a := newActions(time.Hour, func() time.Time { return now })
	acts := a.issue("r1", permission("t1", allowOnce, deny))
	now = now.Add(time.Hour)
	if _, err := a.take(acts[0].Token); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("after the TTL: got %v; want not found", err)
	}
	if n := len(a.grants); n != 0 {
		t.Fatalf("%d grants left; want the group burned", n)
	}
}
