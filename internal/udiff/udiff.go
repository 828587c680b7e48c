// Package udiff computes line diffs in the unified format, for showing the
// change a tool call would make (a file edit waiting for permission). It is
// small on purpose: Myers' O(ND) algorithm over lines, with a bound on the
// edit distance past which the changed block is shown as removed and
// added whole, so a huge rewrite costs bounded time and memory. The whole
// diff is always returned, never cut.
package udiff

import (
	"fmt"
	"strings"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// maxEdits bounds the edit distance searched. Past it, the differing
// middle (after the common head and tail are trimmed) is one hunk that
// removes every old line and adds every new one: still exact, just less
// minimal.
const maxEdits = 2000

// opKind is one step of an edit script.
type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opIns   opKind = '+'
)

type op struct {
	kind opKind
	a, b int // line indexes in old (a) and new (b); -1 when not applicable
}

// Unified returns the unified diff turning old into new, both whole texts,
// headed by "--- name" and "+++ name". Equal texts give "". A text that
// does not end with a newline gets the customary marker after its last
// line.
func Unified(name, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := script(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", name, name)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, a, b)
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// Inside the diff each line carries a leading tag: eol for a line that
// ends with a newline, noEOL for a last line without one, so the two never
// compare equal.
const (
	eol   = "L"
	noEOL = "N"
)

// splitLines splits s into tagged lines; a final newline ends the last
// line rather than starting an empty one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := range ls {
		ls[i] = eol + ls[i]
	}
	if !strings.HasSuffix(s, "\n") {
		ls[len(ls)-1] = noEOL + ls[len(ls)-1][len(eol):]
	}
	return ls
}

// script returns an edit script from a to b: the common head and tail as
// equal runs around a minimal script for the middle (or, past maxEdits,
// the middle removed and added whole).
func script(a, b []string) []op {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []op
	for i := 0; i < head; i++ {
		ops = append(ops, op{opEqual, i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	mid, ok := myers(ma, mb)
	if !ok {
		mid = mid[:0]
		for i := range ma {
			mid = append(mid, op{opDel, i, -1})
		}
		for j := range mb {
			mid = append(mid, op{opIns, -1, j})
		}
	}
	for _, o := range mid {
		if o.a >= 0 {
			o.a += head
		}
		if o.b >= 0 {
			o.b += head
		}
		ops = append(ops, o)
	}
	for i := 0; i < tail; i++ {
		ops = append(ops, op{opEqual, len(a) - tail + i, len(b) - tail + i})
	}
	return ops
}

// myers finds a shortest edit script from a to b, reporting false when
// it needs more than maxEdits edits.
func myers(a, b []string) ([]op, bool) {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil, true
	}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*off+1)
	// trace[d] is v before step d, over k in -(d+1)..d+1.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the trace from (n, m) back to (0, 0), collecting the
// script in reverse, then returns it in order.
func backtrack(trace [][]int, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		t := trace[d]
		at := func(k int) int { return t[k+d+1] }
		k := x - y
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, op{opEqual, x, y})
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, op{opIns, -1, y - 1})
			} else {
				rev = append(rev, op{opDel, x - 1, -1})
			}
			x, y = prevX, prevY
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// hunk is a slice of the script: changes with up to Context equal lines
// around them.
type hunk []op

// hunks groups the script's changes, merging changes whose contexts touch.
func hunks(ops []op) []hunk {
	var out []hunk
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-Context)
		end := i
		for {
			for end < len(ops) && ops[end].kind != opEqual {
				end++
			}
			run := end
			for run < len(ops) && ops[run].kind == opEqual {
				run++
			}
			if run < len(ops) && run-end <= 2*Context {
				end = run // the next change is close: one hunk
				continue
			}
			end = min(end+Context, len(ops))
			break
		}
		out = append(out, hunk(ops[start:end]))
		i = end
	}
	return out
}

// writeHunk writes one hunk with its header. Line numbers are 1-based; an
// empty side starts at the line before it, as diff(1) writes it.
func writeHunk(w *strings.Builder, h hunk, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, o := range h {
		if o.a >= 0 {
			if aStart < 0 {
				aStart = o.a
			}
			aLen++
		}
		if o.b >= 0 {
			if bStart < 0 {
				bStart = o.b
			}
			bLen++
		}
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", span(aStart, aLen, before(h, true)), span(bStart, bLen, before(h, false)))
	for _, o := range h {
		switch o.kind {
		case opEqual:
			line(w, ' ', a[o.a])
		case opDel:
			line(w, '-', a[o.a])
		case opIns:
			line(w, '+', b[o.b])
		}
	}
}

// before returns, for a side with no lines in the hunk, the index of the
// line the hunk sits after on that side (-1 at the top).
func before(h hunk, old bool) int {
	for _, o := range h {
		if old && o.a >= 0 {
			return o.a - 1
		}
		if !old && o.b >= 0 {
			return o.b - 1
		}
	}
	return -1
}

// span renders "start,len" (1-based); an empty side names the line it
// follows.
func span(start, n, after int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", after+1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func line(w *strings.Builder, mark byte, text string) {
	last := strings.HasPrefix(text, noEOL)
	text = text[1:]
	w.WriteByte(mark)
	w.WriteString(text)
	w.WriteByte('\n')
	if last {
		w.WriteString("\\ No newline at end of file\n")
	}
}
