package codex

import (
	"fmt"
	"strings"
)

// Unified diffs of apply_patch edits, for the approval prompt of a file
// edit: the operator sees what the patch would change, with line numbers,
// computed by lab from the patch and the file on disk.

// diffContext is how many unchanged lines surround each hunk.
const diffContext = 3

// diffMaxCells bounds the line-matching table (old × new lines); bigger
// files fall back to the patch's own hunks, without line numbers.
const diffMaxCells = 4 << 20

// PatchDiff returns a unified diff of what file f of a patch changes.
// read returns a file's current content (for updates and deletes); when it
// fails, or the patch's lines cannot be found in the file, the diff is the
// patch's hunks as written, without line numbers.
func PatchDiff(f PatchFile, read func(path string) (string, error)) string {
	oldName, newName := "a/"+strings.TrimPrefix(f.Path, "/"), "b/"+strings.TrimPrefix(f.Path, "/")
	if f.MoveTo != "" {
		newName = "b/" + strings.TrimPrefix(f.MoveTo, "/")
	}
	var b strings.Builder
	switch f.Op {
	case PatchAdd:
		var lines []string
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				lines = append(lines, l[1:])
			}
		}
		fmt.Fprintf(&b, "--- /dev/null\n+++ %s\n", newName)
		writeHunks(&b, nil, lines)
		return b.String()
	case PatchDelete:
		fmt.Fprintf(&b, "--- %s\n+++ /dev/null\n", oldName)
		if read != nil {
			if old, err := read(f.Path); err == nil {
				writeHunks(&b, splitLines(old), nil)
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	if read != nil {
		if old, err := read(f.Path); err == nil {
			oldLines := splitLines(old)
			if newLines, ok := applyHunks(oldLines, f.Hunks); ok && len(oldLines)*len(newLines) <= diffMaxCells {
				writeHunks(&b, oldLines, newLines)
				return b.String()
			}
		}
	}
	for _, h := range f.Hunks {
		b.WriteString("@@")
		if h.Context != "" {
			b.WriteString(" " + h.Context)
		}
		b.WriteByte('\n')
		for _, l := range h.Lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// splitLines splits file content into lines without their newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// applyHunks applies an update's chunks to old as the CLI does: each
// chunk's "@@ context" line, then its old lines (context and removed), are
// found at or after the previous chunk, and replaced by its new lines.
// Lines match exactly, else ignoring trailing, then all surrounding white
// space. It reports false when a chunk cannot be placed.
func applyHunks(old []string, hunks []PatchHunk) ([]string, bool) {
	var out []string
	pos := 0
	for _, h := range hunks {
		if h.Context != "" {
			at := seek(old, []string{h.Context}, pos, false)
			if at < 0 {
				return nil, false
			}
			out = append(out, old[pos:at+1]...)
			pos = at + 1
		}
		var from, to []string
		for _, l := range h.Lines {
			body := l[1:]
			switch l[0] {
			case ' ':
				from, to = append(from, body), append(to, body)
			case '-':
				from = append(from, body)
			case '+':
				to = append(to, body)
			}
		}
		if len(from) == 0 {
			// Pure addition: at the end of the file, or after the context.
			at := pos
			if h.EOF || h.Context == "" {
				at = len(old)
			}
			out = append(out, old[pos:at]...)
			out = append(out, to...)
			pos = at
			continue
		}
		at := seek(old, from, pos, h.EOF)
		if at < 0 {
			return nil, false
		}
		out = append(out, old[pos:at]...)
		out = append(out, to...)
		pos = at + len(from)
	}
	return append(out, old[pos:]...), true
}

// seek finds want in lines at or after start (at the very end when eof),
// exactly, then ignoring trailing white space, then ignoring all
// surrounding white space. It returns the index or -1.
func seek(lines, want []string, start int, eof bool) int {
	for _, norm := range []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t") },
		strings.TrimSpace,
	} {
		first := start
		if eof && len(lines)-len(want) >= start {
			first = len(lines) - len(want)
		}
	next:
		for i := first; i+len(want) <= len(lines); i++ {
			for k, w := range want {
				if norm(lines[i+k]) != norm(w) {
					continue next
				}
			}
			return i
		}
	}
	return -1
}

// writeHunks writes the unified diff hunks between a and b.
func writeHunks(w *strings.Builder, a, b []string) {
	ops := diffLines(a, b)
	// Group changes with diffContext lines around them.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(w, "@@ -%s +%s @@\n", span(aStart, aLen), span(bStart, bLen))
		for _, op := range ops[start:end] {
			w.WriteByte(op.kind)
			w.WriteString(op.text)
			w.WriteByte('\n')
		}
		i = end
	}
}

// span renders a hunk range: "start,len", with the conventions for empty
// and one-line ranges.
func span(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// diffOp is one line of an edit script; a and b are the 0-based positions
// in the old and new lines where it stands.
type diffOp struct {
	kind byte // ' ', '-' or '+'
	text string
	a, b int
}

// diffLines computes a shortest edit script between a and b by the
// longest common subsequence (O(len(a)·len(b)), bounded by the caller).
func diffLines(a, b []string) []diffOp {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], i, j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}
