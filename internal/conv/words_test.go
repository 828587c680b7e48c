package conv

import "testing"

func TestDialogLine(t *testing.T) {
	tests := []struct {
		name string
		d    *Dialog
		want string
	}{
		{"question", &Dialog{Questions: []Question{{Question: "Which\ndatabase?"}}}, "Which database?"},
		{"command", &Dialog{Permission: &Permission{Tool: "RunCommand", Command: "npm  test"}}, "Allow RunCommand: npm test?"},
		{"file", &Dialog{Permission: &Permission{Tool: "ChangeFile", Path: "/w/a.go", Diff: "@@"}}, "Allow ChangeFile: /w/a.go?"},
		{"other call", &Dialog{Permission: &Permission{Tool: "Fetch", Summary: "url: https://x\nprompt: y"}}, "Allow Fetch: url: https://x?"},
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
