package claude

import (
	"os"
	"path/filepath"
	"strings"

	"lab/internal/udiff"
)

// The diffs a permission prompt for a file change shows: what writing or
// editing the file would change, computed against the file on disk.

// maxDiffFile bounds the file read for a diff's context; a bigger file's
// change is shown from the edit alone.
const maxDiffFile = 4 << 20

// readForDiff reads the file a change applies to, reporting false when it
// is missing, unreadable or too big to diff against.
func readForDiff(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxDiffFile {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// writeDiff is the change writing content to path makes: a diff against
// the file when it exists, else every line added.
func writeDiff(path, content string) string {
	old, _ := readForDiff(path)
	return udiff.Unified(path, old, content)
}

type fileEdit struct {
	old, new string
	all      bool
}

// editDiff is the change a list of string replacements makes to path: a
// diff of the file before and after when the file can be read and every
// old string is found in it, else a diff of each old string against its
// new one.
func editDiff(path string, edits []fileEdit) string {
	if before, ok := readForDiff(path); ok {
		after, applied := before, true
		for _, e := range edits {
			if e.old == "" || !strings.Contains(after, e.old) {
				applied = false
				break
			}
			if e.all {
				after = strings.ReplaceAll(after, e.old, e.new)
			} else {
				after = strings.Replace(after, e.old, e.new, 1)
			}
		}
		if applied {
			return udiff.Unified(path, before, after)
		}
	}
	// Fragments of a file: their line numbers are unknown, and their
	// missing final newline is not the file's.
	var parts []string
	for _, e := range edits {
		parts = append(parts, udiff.Unified(path, lineEnd(e.old), lineEnd(e.new)))
	}
	return strings.Join(parts, "\n")
}

// lineEnd gives a non-empty fragment a final newline.
func lineEnd(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
