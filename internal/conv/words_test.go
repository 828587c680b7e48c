package conv

import "testing"

func TestDialogLine(t *testing.T) {
	tests := []struct {
		name string
		d    *Dialog
		want string
	}{
		{"question", &Dialog{Questions: []Question{{Question: "Which\ndatabase?"}}}, "Which database?"},
		{"command", &Dialog{Permission: &Permission{Tool: "Bash", Command: "npm  test"}}, "Allow Bash: npm test?"},
		{"file", &Dialog{Permission: &Permission{Tool: "Edit", Path: "/w/a.go", Diff: "@@"}}, "Allow Edit: /w/a.go?"},
		{"other call", &Dialog{Permission: &Permission{Tool: "WebFetch", Summary: "url: https://x\nprompt: y"}}, "Allow WebFetch: url: https://x?"},
		{"bare", &Dialog{Permission: &Permission{Tool: "Mystery"}}, "Allow Mystery?"},
		{"plan titled Plan", &Dialog{Plan: "# Plan: add a greeting\n1. x"}, "Plan: add a greeting"},
		{"plan", &Dialog{Plan: "\n## Steps\n"}, "Plan: Steps"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DialogLine(tt.d); got != tt.want {
				t.Fatalf("got %q; want %q", got, tt.want)
			}
		})
	}
}
