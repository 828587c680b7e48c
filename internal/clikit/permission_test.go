package clikit

import (
	"encoding/json"
	"testing"

	"lab/internal/conv"
)

func TestSummary(t *testing.T) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal([]byte(`{"url":"https://x.test/a","n":3,"opts":{"a":[1,2]},"path":"/p"}`), &in); err != nil {
		t.Fatal(err)
	}
	if got, want := Summary(in, "path"), "n: 3\nopts: {\"a\":[1,2]}\nurl: https://x.test/a"; got != want {
		t.Fatalf("got %q; want %q (key order, strings bare, JSON otherwise, skipped keys out)", got, want)
	}
	if got := Summary(nil); got != "" {
		t.Fatalf("got %q for no input; want empty", got)
	}
}

func TestOptionRole(t *testing.T) {
	rules := []RoleRule{
		{Label: "Yes", Role: conv.RoleAllowOnce},
		{Label: "Yes, and don't ask again", Prefix: true, Role: conv.RoleAllowAlways},
		{Label: "No", Role: conv.RoleDeny},
	}
	for label, want := range map[string]conv.OptionRole{
		"Yes":                              conv.RoleAllowOnce,
		"  Yes ":                           conv.RoleAllowOnce,
		"Yes, and don’t ask again for: ls": conv.RoleAllowAlways, // a curly apostrophe
		"Yes, and don't ask again":         conv.RoleAllowAlways,
		"Yes, please":                      conv.RoleUnknown, // "Yes" is exact, not a prefix
		"No":                               conv.RoleDeny,
		"Nope":                             conv.RoleUnknown,
	} {
		if got := OptionRole(label, rules); got != want {
			t.Errorf("OptionRole(%q) = %q; want %q", label, got, want)
		}
	}
}
