package push

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lab/internal/conv"
)

func TestPayloadCarriesContentOnlyWhenAsked(t *testing.T) {
	run := conv.Run{ID: "abc123", Cwd: "/home/op/secret-project", Title: "Refactor the billing code", Preview: "I changed the invoice totals."}
	question := &conv.Dialog{ToolID: "t1", Kind: conv.DialogQuestion, Questions: []conv.Question{{Question: "Which database holds the invoices?"}}}
	plan := &conv.Dialog{ToolID: "t2", Kind: conv.DialogPlan, Plan: "\n# Move invoices to Postgres\n\n1. dump\n"}
	perm := &conv.Dialog{ToolID: "t3", Kind: conv.DialogPermission, Permission: &conv.Permission{Tool: "Bash", Command: "rm -rf invoices/"}}
	tests := []struct {
		name      string
		reason    Reason
		dialog    *conv.Dialog
		content   bool
		title     string
		body      string
		quiet     bool
		forbidden []string // must not appear anywhere in the payload
	}{
		{"blocked question, no content", ReasonBlocked, question, false, "lab: a run needs you", "secret-project: a question is waiting", false,
			[]string{"billing", "invoice", "database"}},
		{"blocked plan, no content", ReasonBlocked, plan, false, "lab: a run needs you", "secret-project: a plan waits for approval", false,
			[]string{"Postgres", "billing"}},
		{"blocked on a permission, no content", ReasonBlocked, perm, false, "lab: a run needs you", "secret-project: a permission prompt is waiting", false,
			[]string{"rm -rf", "invoices", "Bash"}},
		{"blocked on a permission with content", ReasonBlocked, perm, true, "Refactor the billing code", "Allow Bash: rm -rf invoices/?", false, nil},
		{"blocked without a dialog", ReasonBlocked, nil, false, "lab: a run needs you", "secret-project: it waits for your answer", false, nil},
		{"turn end, no content", ReasonTurnEnd, nil, false, "lab: your turn", "secret-project: the agent finished its turn", true,
			[]string{"invoice", "billing"}},
		{"blocked question with content", ReasonBlocked, question, true, "Refactor the billing code", "Which database holds the invoices?", false, nil},
		{"blocked plan with content", ReasonBlocked, plan, true, "Refactor the billing code", "Plan: Move invoices to Postgres", false, nil},
		{"turn end with content", ReasonTurnEnd, nil, true, "Refactor the billing code", "I changed the invoice totals.", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := payloadFor(tt.reason, About{Run: run, Dialog: tt.dialog}, tt.content)
			if p.Title != tt.title || p.Body != tt.body || p.Quiet != tt.quiet {
				t.Fatalf("got title %q body %q quiet %v; want %q %q %v", p.Title, p.Body, p.Quiet, tt.title, tt.body, tt.quiet)
			}
			if p.URL != "/runs/abc123" || p.RunID != "abc123" || p.Tag != "run-abc123" || p.Reason != tt.reason {
				t.Fatalf("routing: got %+v", p)
			}
			all := mustJSON(p)
			for _, f := range tt.forbidden {
				if strings.Contains(all, f) {
					t.Errorf("payload %s carries %q without the content option", all, f)
				}
			}
		})
	}
}

func TestPayloadNamesAPeersMachine(t *testing.T) {
	run := conv.Run{ID: "build~abc", Machine: "build", Cwd: "/srv/api", Title: "Fix the build"}
	q := &conv.Dialog{ToolID: "t1", Kind: conv.DialogQuestion, Questions: []conv.Question{{Question: "Which?"}}}
	for _, tc := range []struct {
		reason      Reason
		content     bool
		title, body string
	}{
		{ReasonBlocked, false, "lab: a run on build needs you", "api: a question is waiting"},
		{ReasonBlocked, true, "build · Fix the build", "Which?"},
		{ReasonTurnEnd, false, "lab: your turn on build", "api: the agent finished its turn"},
	} {
		p := payloadFor(tc.reason, About{Run: run, Dialog: q}, tc.content)
		if p.Title != tc.title || p.Body != tc.body || p.URL != "/runs/build~abc" || p.Tag != "run-build~abc" {
			t.Errorf("%s content=%v: %+v; want %q / %q, opening the run at the hub", tc.reason, tc.content, p, tc.title, tc.body)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("word ", 100)
	got := clip(long, 50)
	if utf8.RuneCountInString(got) > 50 || !strings.HasSuffix(got, "…") {
		t.Fatalf("clip: got %q (%d runes); want at most 50 ending in …", got, utf8.RuneCountInString(got))
	}
	if got := clip("two\nlines\t here", 50); got != "two lines here" {
		t.Fatalf("clip one line: got %q", got)
	}
	if got := clip("ééé", 3); got != "ééé" {
		t.Fatalf("clip exact: got %q", got)
	}
}
