package gitsnap

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Status is how a file changed between two snapshots.
type Status string

const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// Change is one file that differs between two trees. Paths are relative
// to the snapshotted folder, slash-separated.
type Change struct {
	Path    string
	OldPath string // a rename's source
	Status  Status
	// Binary: git found no lines to count (Added and Removed are 0).
	Binary         bool
	Added, Removed int
	// OldMode and NewMode are git's file modes ("100644", "120000" for a
	// symbolic link, "160000" for a submodule; "" on the absent side).
	OldMode, NewMode string
	OldID, NewID     string // object ids ("" on the absent side)
}

// Submodule reports whether either side is a submodule (its commit).
func (c Change) Submodule() bool { return c.OldMode == modeGitlink || c.NewMode == modeGitlink }

const (
	modeGitlink = "160000"
	zeroMode    = "000000"
)

// Diff lists the files that differ from tree from to tree to, with
// renames found (git's default: half the content alike) and lines
// counted, in path order.
func (s *Store) Diff(ctx context.Context, from, to string) ([]Change, error) {
	out, err := s.reader().run(ctx, "diff-tree", "-r", "-M", "--raw", "--numstat", "-z", "--no-ext-diff", from, to)
	if err != nil {
		return nil, err
	}
	return parseDiff(out)
}

// Find returns the change to path (its new path, or the old path of a
// deletion) between from and to; ok is false when path did not change.
func (s *Store) Find(ctx context.Context, from, to, path string) (Change, bool, error) {
	out, err := s.reader().run(ctx, "diff-tree", "-r", "-M", "--raw", "-z", from, to)
	if err != nil {
		return Change{}, false, err
	}
	cs, err := parseDiff(out)
	if err != nil {
		return Change{}, false, err
	}
	for _, c := range cs {
		if c.Path == path {
			return c, true, nil
		}
	}
	return Change{}, false, nil
}

// parseDiff reads `diff-tree --raw [--numstat] -z`: every raw record,
// then, when asked, every numstat record in the same order.
func parseDiff(out []byte) ([]Change, error) {
	f := strings.Split(string(out), "\x00")
	var cs []Change
	i := 0
	for i < len(f) && strings.HasPrefix(f[i], ":") {
		// ":old new oldid newid status", then one path (two for a rename
		// or copy).
		meta := strings.Fields(f[i][1:])
		if len(meta) != 5 || i+1 >= len(f) {
			return nil, fmt.Errorf("git diff-tree: unreadable record %q", f[i])
		}
		c := Change{OldMode: meta[0], NewMode: meta[1], OldID: meta[2], NewID: meta[3], Path: f[i+1]}
		i += 2
		switch meta[4][0] {
		case 'A':
			c.Status = Added
		case 'D':
			c.Status = Deleted
		case 'R', 'C':
			if i >= len(f) {
				return nil, fmt.Errorf("git diff-tree: a rename without its new path")
			}
			c.Status, c.OldPath, c.Path = Renamed, c.Path, f[i]
			i++
		default: // M, T (type change)
			c.Status = Modified
		}
		if c.OldMode == zeroMode {
			c.OldMode, c.OldID = "", ""
		}
		if c.NewMode == zeroMode {
			c.NewMode, c.NewID = "", ""
		}
		cs = append(cs, c)
	}
	// numstat: "added\tremoved\tpath", or "added\tremoved\t" then the two
	// paths of a rename.
	for n := 0; i < len(f) && f[i] != ""; n++ {
		if n >= len(cs) {
			return nil, fmt.Errorf("git diff-tree: more counts than files")
		}
		parts := strings.SplitN(f[i], "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("git diff-tree: unreadable count %q", f[i])
		}
		i++
		if parts[2] == "" {
			i += 2 // the rename's paths
		}
		c := &cs[n]
		if parts[0] == "-" {
			c.Binary = true
			continue
		}
		c.Added, _ = strconv.Atoi(parts[0])
		c.Removed, _ = strconv.Atoi(parts[1])
	}
	return cs, nil
}

// Blob returns the content of object id.
func (s *Store) Blob(ctx context.Context, id string) ([]byte, error) {
	return s.reader().run(ctx, "cat-file", "blob", id)
}

// Size returns the size of object id in bytes.
func (s *Store) Size(ctx context.Context, id string) (int64, error) {
	out, err := s.reader().run(ctx, "cat-file", "-s", id)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
}

// LooksBinary reports whether b is binary by git's rule: a NUL byte in
// its first 8000 bytes.
func LooksBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
