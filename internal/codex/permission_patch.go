package codex

import (
	"strings"
)

// An apply_patch input, as the model writes it for the CLI:
//
//	*** Begin Patch
//	*** Add File: path          then "+" lines
//	*** Delete File: path
//	*** Update File: path       then optional "*** Move to: path",
//	@@ optional context         then " ", "-", "+" lines, hunk by hunk
//	*** End of File             (optional, after a hunk that ends the file)
//	*** End Patch

// PatchOp is what a patch does to one file.
type PatchOp string

const (
	PatchAdd    PatchOp = "add"
	PatchDelete PatchOp = "delete"
	PatchUpdate PatchOp = "update"
)

// PatchFile is one file of a patch.
type PatchFile struct {
	Op     PatchOp
	Path   string
	MoveTo string // an update that also renames
	// Hunks are the update's chunks; an added file has one hunk of "+"
	// lines.
	Hunks []PatchHunk
}

// PatchHunk is one chunk of an update: the "@@" context line it names (may
// be empty) and its lines, each starting with ' ', '-' or '+'.
type PatchHunk struct {
	Context string
	Lines   []string
	EOF     bool // the chunk ends at the end of the file
}

// ParsePatch reads an apply_patch input. It is lenient (the CLI is the
// judge of a patch's validity): lines outside a known section are ignored,
// and a missing End Patch is fine.
func ParsePatch(s string) []PatchFile {
	var files []PatchFile
	var cur *PatchFile
	var hunk *PatchHunk
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "*** Begin Patch"), strings.HasPrefix(l, "*** End Patch"):
			hunk = nil
		case strings.HasPrefix(l, "*** Add File: "):
			files = append(files, PatchFile{Op: PatchAdd, Path: strings.TrimSpace(l[len("*** Add File: "):]), Hunks: []PatchHunk{{}}})
			cur = &files[len(files)-1]
			hunk = &cur.Hunks[0]
		case strings.HasPrefix(l, "*** Delete File: "):
			files = append(files, PatchFile{Op: PatchDelete, Path: strings.TrimSpace(l[len("*** Delete File: "):])})
			cur, hunk = &files[len(files)-1], nil
		case strings.HasPrefix(l, "*** Update File: "):
			files = append(files, PatchFile{Op: PatchUpdate, Path: strings.TrimSpace(l[len("*** Update File: "):])})
			cur, hunk = &files[len(files)-1], nil
		case strings.HasPrefix(l, "*** Move to: ") && cur != nil:
			cur.MoveTo = strings.TrimSpace(l[len("*** Move to: "):])
		case strings.HasPrefix(l, "*** End of File"):
			if hunk != nil {
				hunk.EOF = true
			}
		case strings.HasPrefix(l, "@@") && cur != nil && cur.Op == PatchUpdate:
			cur.Hunks = append(cur.Hunks, PatchHunk{Context: strings.TrimSpace(strings.TrimPrefix(l, "@@"))})
			hunk = &cur.Hunks[len(cur.Hunks)-1]
		case cur != nil && cur.Op != PatchDelete && l != "" && strings.ContainsRune(" -+", rune(l[0])):
			if hunk == nil {
				// An update's lines before any "@@": one unnamed chunk.
				cur.Hunks = append(cur.Hunks, PatchHunk{})
				hunk = &cur.Hunks[len(cur.Hunks)-1]
			}
			if cur.Op == PatchAdd && l[0] != '+' {
				continue
			}
			hunk.Lines = append(hunk.Lines, l)
		case cur != nil && cur.Op == PatchUpdate && l == "" && hunk != nil:
			// An empty context line whose leading space was trimmed.
			hunk.Lines = append(hunk.Lines, " ")
		}
	}
	return files
}

// patchFiles lists the files a patch writes (a move's both ends), in
// order.
func patchFiles(s string) []string {
	var out []string
	for _, f := range ParsePatch(s) {
		out = append(out, f.Path)
		if f.MoveTo != "" {
			out = append(out, f.MoveTo)
		}
	}
	return out
}

// patchSummary names what a patch does, one file after another: "Add
// a.txt, Update b.go".
func patchSummary(s string) string {
	files := ParsePatch(s)
	if len(files) == 0 {
		return s
	}
	parts := make([]string, 0, len(files))
	for _, f := range files {
		verb := map[PatchOp]string{PatchAdd: "Add", PatchDelete: "Delete", PatchUpdate: "Update"}[f.Op]
		p := verb + " " + f.Path
		if f.MoveTo != "" {
			p += " → " + f.MoveTo
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
