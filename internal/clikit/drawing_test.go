package clikit

import (
	"reflect"
	"strings"
	"testing"
)

func TestLastBlock(t *testing.T) {
	d := Drawn{Echo: "❯ ", Bullet: "● "}
	for _, tc := range []struct {
		name  string
		lines string
		want  []string
	}{
		{"nothing below the prompt", "❯ go\n\n✶ Thinking…", nil},
		{"a bullet and no words yet", "❯ go\n●\n✶ Thinking…", nil},
		{"the last of two blocks, status below", "❯ go\n● first\n  wrapped\n● second one\n  goes on\n\n  new paragraph\n✶ Working…", []string{"second one", "goes on", "", "new paragraph"}},
		{"right-aligned status dropped", "❯ go\n● words\n  more\n" + strings.Repeat(" ", 90) + "◐ medium", []string{"words", "more"}},
		{"blocks of an earlier turn are not this one's", "● old answer\n❯ next\n✶ Thinking…", nil},
		{"a block whose start scrolled off", "  tail of a long text\n  and more", []string{"tail of a long text", "and more"}},
		{"a list keeps its indent", "❯ go\n● Steps:\n  - one\n    - nested", []string{"Steps:", "- one", "  - nested"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := d.LastBlock(strings.Split(tc.lines, "\n"))
			if ok != (tc.want != nil) || !reflect.DeepEqual(got, tc.want) && tc.want != nil {
				t.Fatalf("got %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}

func TestUnwrap(t *testing.T) {
	long := strings.Repeat("word ", 9) + "word1" // 50 columns
	for _, tc := range []struct {
		name  string
		block []string
		want  string
	}{
		{"wrapped lines join", []string{long + " word2", "word3 word4"}, long + " word2 word3 word4"},
		{"a line the next word fitted on ends there", []string{long + " word2", "w3", "done."}, long + " word2 w3\ndone."},
		{"short lines are the agent's", []string{"one two three", "four"}, "one two three\nfour"},
		{"paragraphs stay apart", []string{"one two three", "", "", "four five six", "seven"}, "one two three\n\nfour five six\nseven"},
		{"a paragraph wraps twice", []string{long + " bbb", long + " ddd", "ggg"}, long + " bbb " + long + " ddd ggg"},
		{"list items keep their lines, their wraps join", []string{"Steps to take:", "- one", "- " + long, "  wrapped", "1. first"}, "Steps to take:\n- one\n- " + long + " wrapped\n1. first"},
		{"code keeps its lines", []string{"the code is:", "    x := 1", "    y := 2"}, "the code is:\n    x := 1\n    y := 2"},
		{"trailing blank lines go", []string{"done", ""}, "done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unwrap(tc.block); got != tc.want {
				t.Fatalf("got %q; want %q", got, tc.want)
			}
		})
	}
}
