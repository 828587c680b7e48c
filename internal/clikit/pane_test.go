package clikit

import "testing"

func TestSameText(t *testing.T) {
	if !SameText("Which database\n  should we use?", "Which database should we use?") {
		t.Error("wrapped text not the same")
	}
	if SameText("Which database", "Which databases") {
		t.Error("different text the same")
	}
}

func TestRowShows(t *testing.T) {
	tests := []struct {
		label string
		more  []string
		want  string
		shows bool
	}{
		{"Yes", nil, "Yes", true},
		{"Yes, and don't ask", []string{"again this session"}, "Yes, and don't ask again this session", true},
		{"Yes, and don't ask", []string{"again this session", "(a description)"}, "Yes, and don't ask again this session", true},
		{"Yes", []string{"a description"}, "Yes, a", false},
		{"Yes", nil, "No", false},
		{"Yes", []string{"and more"}, "Yesandmore but longer", false},
	}
	for _, tc := range tests {
		if got := RowShows(tc.label, tc.more, tc.want); got != tc.shows {
			t.Errorf("RowShows(%q, %q, %q) = %v; want %v", tc.label, tc.more, tc.want, got, tc.shows)
		}
	}
}
