package codex

import (
	"strings"

	"lab/internal/udiff"
)

// PatchDiff returns a unified diff of what file f of a patch changes, for
// the approval prompt of a file edit. read returns a file's current
// content (for updates and deletes); when it fails, or the patch's lines
// cannot be found in the file, the diff is the patch's own hunks, without
// line numbers.
func PatchDiff(f PatchFile, read func(path string) (string, error)) string {
	name := f.Path
	if f.MoveTo != "" {
		name = f.Path + " → " + f.MoveTo
	}
	switch f.Op {
	case PatchAdd:
		var b strings.Builder
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				b.WriteString(l[1:] + "\n")
			}
		}
		return udiff.Unified(name, "", b.String())
	case PatchDelete:
		if read != nil {
			if old, err := read(f.Path); err == nil {
				return udiff.Unified(name, old, "")
			}
		}
		return "--- " + name + "\n+++ " + name + "\n(file deleted)"
	}
	if read != nil {
		if old, err := read(f.Path); err == nil {
			if lines, ok := applyHunks(splitLines(old), f.Hunks); ok {
				next := strings.Join(lines, "\n")
				if len(lines) > 0 {
					next += "\n"
				}
				if d := udiff.Unified(name, old, next); d != "" || f.MoveTo == "" {
					return d
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("--- " + name + "\n+++ " + name)
	for _, h := range f.Hunks {
		b.WriteString("\n@@")
		if h.Context != "" {
			b.WriteString(" " + h.Context)
		}
		for _, l := range h.Lines {
			b.WriteString("\n" + l)
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
