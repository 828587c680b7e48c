package foldtest

import (
	"strings"
	"testing"
)

func TestSplitPoints(t *testing.T) {
	if got := SplitPoints(10, 14); len(got) != 3 || got[0] != 11 || got[2] != 13 {
		t.Errorf("SplitPoints(10, 14) = %v; want 11..13", got)
	}
	got := SplitPoints(0, 100000)
	if !testing.Short() {
		if len(got) != 99999 {
			t.Errorf("%d points; want every offset", len(got))
		}
		return
	}
	if len(got) != 1024+128+1024 || got[0] != 1 || got[len(got)-1] != 99999 {
		t.Errorf("%d points from %d to %d; want the first and last KB and 128 between", len(got), got[0], got[len(got)-1])
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("points not increasing at %d: %d, %d", i, got[i-1], got[i])
		}
	}
}

func TestFirstDiff(t *testing.T) {
	if d := FirstDiff("a\nb\nc", "a\nx\nc"); !strings.Contains(d, "line 2") || !strings.Contains(d, "got  b") || !strings.Contains(d, "want x") {
		t.Errorf("FirstDiff = %q", d)
	}
	if d := FirstDiff("a", "a\nmore"); !strings.Contains(d, "line 2") {
		t.Errorf("FirstDiff of a shorter text = %q", d)
	}
	if d := FirstDiff("same", "same"); d != "(no line differs)" {
		t.Errorf("FirstDiff of equal texts = %q", d)
	}
}
