package fakeapi

import (
	"encoding/json"
	"strings"
)

// PickScenario returns the index in scenarios of the one whose keyword
// (as keyword reads it) the prompt contains as a whole word, the longest
// keyword winning, else 0: the first scenario is the default.
func PickScenario[S any](prompt string, scenarios []S, keyword func(*S) string) int {
	best := -1
	for i := range scenarios {
		kw := keyword(&scenarios[i])
		if ContainsKeyword(prompt, kw) && (best < 0 || len(kw) > len(keyword(&scenarios[best]))) {
			best = i
		}
	}
	return max(best, 0)
}

// ContainsKeyword reports whether kw occurs in s as a whole word, so that
// "lab:form" does not match inside "lab:form3".
func ContainsKeyword(s, kw string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], kw)
		if j < 0 {
			return false
		}
		end := i + j + len(kw)
		if end == len(s) || !isWordByte(s[end]) {
			return true
		}
		i = end
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// Chunks cuts s into at most n pieces of about equal size, on rune
// boundaries.
func Chunks(s string, n int) []string {
	if s == "" {
		return nil
	}
	r := []rune(s)
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}

// Words cuts s after each space, keeping every byte.
func Words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// JoinText flattens a content value the CLI sent: a string as it is, or
// an array of parts, the texts of those keep accepts (by type and text)
// joined by newlines; anything else as its JSON.
func JoinText(raw json.RawMessage, keep func(typ, text string) bool) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return string(raw)
	}
	var out []string
	for _, p := range parts {
		if keep(p.Type, p.Text) {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}
