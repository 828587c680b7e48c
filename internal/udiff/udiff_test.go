package udiff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedShapes(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"new file", "", "first line\nsecond line\n", "--- f\n+++ f\n@@ -0,0 +1,2 @@\n+first line\n+second line"},
		{"emptied", "x\ny\n", "", "--- f\n+++ f\n@@ -1,2 +0,0 @@\n-x\n-y"},
		{"one line changed", "hello\n", "hello, edited\n", "--- f\n+++ f\n@@ -1 +1 @@\n-hello\n+hello, edited"},
		{"context", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8"},
		{"no newline at end", "a\nb", "a\nc", "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file"},
		{"two hunks", lines(1, 20), strings.Replace(strings.Replace(lines(1, 20), "2\n", "two\n", 1), "19\n", "nineteen\n", 1),
			"--- f\n+++ f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Unified("f", c.old, c.new)
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if c.want != "" {
				checkApplies(t, c.old, c.new, got)
			}
		})
	}
}

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// Every diff, applied to the old text, gives the new one: random edits of
// random texts, including ones past the edit bound.
func TestUnifiedAppliesBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	words := []string{"a", "b", "c", "d", "", "e"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))] + "\n")
		}
		return b.String()
	}
	for i := range 500 {
		old := gen(rng.IntN(40))
		new := gen(rng.IntN(40))
		if rng.IntN(3) == 0 {
			new = strings.TrimSuffix(new, "\n")
		}
		d := Unified("f", old, new)
		if (d == "") != (old == new) {
			t.Fatalf("case %d: empty diff %v for equal %v", i, d == "", old == new)
		}
		if d != "" {
			checkApplies(t, old, new, d)
		}
	}
	// Past maxEdits the middle is replaced whole, still exactly.
	var a, b strings.Builder
	for i := range 3 * maxEdits {
		fmt.Fprintf(&a, "old %d\n", i)
		fmt.Fprintf(&b, "new %d\n", i)
	}
	checkApplies(t, a.String(), b.String(), Unified("f", a.String(), b.String()))
}

// The script is minimal where it is searched: a single changed line in a
// long file costs one removal and one addition.
func TestUnifiedIsMinimal(t *testing.T) {
	old := lines(1, 1000)
	new := strings.Replace(old, "500\n", "five hundred\n", 1)
	d := Unified("f", old, new)
	if strings.Count(d, "\n-") != 1 || strings.Count(d, "\n+") != 2 { // "+++ f" and the line
		t.Fatalf("got\n%s\nwant one line out, one in", d)
	}
}

// checkApplies applies diff d to old and requires new.
func checkApplies(t *testing.T, old, new, d string) {
	t.Helper()
	got, err := apply(old, d)
	if err != nil {
		t.Fatalf("%v\ndiff:\n%s", err, d)
	}
	if got != new {
		t.Fatalf("applied diff gives %q; want %q\ndiff:\n%s", got, new, d)
	}
}

// apply is a strict patch(1) for one file: context and removals must match.
func apply(old, d string) (string, error) {
	src := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	if old == "" {
		src = nil
	}
	srcNL := old == "" || strings.HasSuffix(old, "\n")
	var out []string
	outNL := true
	pos := 0
	ls := strings.Split(d, "\n")
	if len(ls) < 2 || !strings.HasPrefix(ls[0], "--- ") || !strings.HasPrefix(ls[1], "+++ ") {
		return "", fmt.Errorf("no header")
	}
	last := byte(0)
	for _, l := range ls[2:] {
		switch {
		case strings.HasPrefix(l, "@@ "):
			var as, al int
			f := strings.Fields(l)[1][1:]
			s, n, ok := strings.Cut(f, ",")
			as, _ = strconv.Atoi(s)
			al = 1
			if ok {
				al, _ = strconv.Atoi(n)
			}
			start := as - 1
			if al == 0 {
				start = as
			}
			if start < pos {
				return "", fmt.Errorf("hunk at %d overlaps", as)
			}
			out = append(out, src[pos:start]...)
			pos = start
		case l == `\ No newline at end of file`:
			if last == '-' || last == ' ' {
				srcNL = false
			}
			if last == '+' || last == ' ' {
				outNL = false
			}
		case len(l) > 0 && (l[0] == ' ' || l[0] == '-'):
			if pos >= len(src) || src[pos] != l[1:] {
				return "", fmt.Errorf("line %d: got %q; want %q", pos+1, at(src, pos), l[1:])
			}
			if l[0] == ' ' {
				out = append(out, l[1:])
			}
			pos++
			last = l[0]
		case len(l) > 0 && l[0] == '+':
			out = append(out, l[1:])
			last = '+'
		default:
			return "", fmt.Errorf("bad line %q", l)
		}
	}
	out = append(out, src[pos:]...)
	if pos < len(src) {
		outNL = srcNL
	}
	if len(out) == 0 {
		return "", nil
	}
	s := strings.Join(out, "\n")
	if outNL {
		s += "\n"
	}
	return s, nil
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<end>"
}

func FuzzUnified(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n")
	f.Add("", "x")
	f.Add("x\n\n\ny", "\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		if strings.Contains(old+new, "\r") {
			return
		}
		d := Unified("f", old, new)
		if old == new {
			if d != "" {
				t.Fatalf("equal texts gave %q", d)
			}
			return
		}
		checkApplies(t, old, new, d)
	})
}
