package clikit

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"lab/internal/conv"
)

// Summary renders a tool input as "key: value" lines in key order, strings
// as they are and anything else as compact JSON, leaving out the keys
// skip names: a permission prompt's call readable on a phone.
func Summary(in map[string]json.RawMessage, skip ...string) string {
	keys := make([]string, 0, len(in))
	for k := range in {
		if !slices.Contains(skip, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := string(in[k])
		var s string
		if json.Unmarshal(in[k], &s) == nil {
			v = s
		}
		b.WriteString(k + ": " + v + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// RoleRule names the role of a permission prompt's option by its label:
// the label is Label, or starts with it when Prefix.
type RoleRule struct {
	Label  string
	Prefix bool
	Role   conv.OptionRole
}

// OptionRole names what a permission prompt's option does from its label,
// by the first of a CLI's rules that fits (white space around the label
// ignored, curly apostrophes read as straight ones); a label no rule fits
// is RoleUnknown, which lab never chooses.
func OptionRole(label string, rules []RoleRule) conv.OptionRole {
	l := strings.ReplaceAll(strings.TrimSpace(label), "’", "'")
	for _, r := range rules {
		if l == r.Label || r.Prefix && strings.HasPrefix(l, r.Label) {
			return r.Role
		}
	}
	return conv.RoleUnknown
}
