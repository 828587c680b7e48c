package claude

import "testing"

func TestVersionVerified(t *testing.T) {
	cases := []struct {
		v    string
		want bool
	}{
		{"2.1.328", true},
		{"2.1.329", true},
		{"2.1.330 (Claude Code)", true},
		{"2.1.332", true},
		{"2.1.327", false},
		{"2.1.333", false},
		{"2.2.0", false},
		{"1.9.999", false},
		{"2.1.1000", false}, // numeric, not lexical: 1000 > 332
		{"2.1.33", false},   // lexically between 2.1.328 and 2.1.332
		{"", false},
		{"2.1", false},
		{"2.1.x", false},
		{"2.1.-1", false},
		{"2.1.+330", false},
	}
	for _, c := range cases {
		if got := VersionVerified(c.v); got != c.want {
			t.Errorf("VersionVerified(%q) = %v; want %v", c.v, got, c.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		cmp  int
		ok   bool
	}{
		{"2.1.328", "2.1.328", 0, true},
		{"2.1.9", "2.1.10", -1, true},
		{"3.0.0", "2.99.99", 1, true},
		{"2.1.328 (Claude Code)", "2.1.332", -1, true},
		{"2.1.328", "two", 0, false},
		{"", "2.1.328", 0, false},
	}
	for _, c := range cases {
		if cmp, ok := CompareVersions(c.a, c.b); cmp != c.cmp || ok != c.ok {
			t.Errorf("CompareVersions(%q, %q) = %d, %v; want %d, %v", c.a, c.b, cmp, ok, c.cmp, c.ok)
		}
	}
}

// TestVersionConstants keeps the range sane: the pin is verified and the
// range is not empty.
func TestVersionConstants(t *testing.T) {
	if cmp, ok := CompareVersions(VerifiedOldest, VerifiedNewest); !ok || cmp > 0 {
		t.Fatalf("verified range %s–%s is empty or unparsable", VerifiedOldest, VerifiedNewest)
	}
	if !VersionVerified(PinnedVersion) {
		t.Fatalf("the pinned %s lies outside the verified range %s–%s", PinnedVersion, VerifiedOldest, VerifiedNewest)
	}
}
