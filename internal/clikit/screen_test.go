package clikit

import (
	"strings"
	"testing"
)

func TestPaneLines(t *testing.T) {
	got := PaneLines("a  \r\n b\t\n\n")
	if strings.Join(got, "|") != "a| b||" {
		t.Fatalf("got %q; want CRLF split and trailing white space gone, leading kept", got)
	}
}

func TestFindRow(t *testing.T) {
	type row struct {
		label  string
		cursor bool
	}
	rows := []row{{"a", false}, {"b", true}, {"c", true}}
	if r := FindRow(rows, func(r *row) bool { return r.cursor }); r != &rows[1] {
		t.Fatalf("got %v; want the first match, in place", r)
	}
	if r := FindRow(rows, func(r *row) bool { return r.label == "z" }); r != nil {
		t.Fatalf("got %v; want nil", r)
	}
}
