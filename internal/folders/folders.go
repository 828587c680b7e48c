// Package folders answers the folder picker of the new-run form: which
// directories lie under the operator's configured roots, recent ones and
// git repositories first. It lists directories only, never a file, and
// never anything outside a root: every candidate is resolved through its
// symlinks and checked against the resolved roots, and ".." is refused
// outright, so a query cannot climb out by spelling.
package folders

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"lab/internal/conv"
)

// Limits of one query. The scan bound keeps a folder with a million
// entries from costing more than a glance; Truncated says when it bit.
const (
	DefaultLimit = 50
	MaxLimit     = 200
	maxQuery     = 4096
	scanMax      = 20000
	recentMax    = 12
)

// Lister lists folders under fixed roots. It is safe for concurrent use.
type Lister struct {
	roots  []root
	home   string
	recent func(ctx context.Context) []string
}

type root struct {
	path string // as configured (absolute, cleaned)
	real string // symlinks resolved
}

// New returns a Lister over roots (absolute paths or "~"-paths, each an
// existing directory) where "~" means home. recent, when set, returns the
// folders runs and sessions used, most recent first.
func New(roots []string, home string, recent func(ctx context.Context) []string) (*Lister, error) {
	if len(roots) == 0 {
		roots = []string{home}
	}
	l := &Lister{home: filepath.Clean(home), recent: recent}
	for _, r := range roots {
		p := Expand(r, home)
		if !filepath.IsAbs(p) {
			return nil, errors.New("folder root " + r + " is not an absolute path")
		}
		p = filepath.Clean(p)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, errors.New("folder root " + p + " cannot be used: " + err.Error())
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, errors.New("folder root " + p + " is not a directory")
		}
		l.roots = append(l.roots, root{path: p, real: real})
	}
	return l, nil
}

// Roots returns the configured roots.
func (l *Lister) Roots() []string {
	out := make([]string, len(l.roots))
	for i, r := range l.roots {
		out[i] = r.path
	}
	return out
}

// Expand replaces a leading "~" (alone or before a slash) with home. Other
// paths, "~user" included, are returned unchanged.
func Expand(p, home string) string {
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	}
	return p
}

// List answers q, which is one of:
//   - empty: recent folders, then the roots and their children;
//   - a path (absolute or "~/…"): the directories in its folder whose
//     names start with its last element (all of them after a trailing
//     slash); above the roots, the roots and recent folders it prefixes;
//   - a word: recent folders and the roots' children whose names hold it.
//
// Matching is case-insensitive; hidden folders show only when the typed
// name starts with a dot. Returns conv.EInvalid for a query with ".." or
// control characters.
func (l *Lister) List(ctx context.Context, q string, limit int) (conv.FolderList, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	if err := checkQuery(q); err != nil {
		return conv.FolderList{}, err
	}
	c := &collector{l: l, seen: map[string]bool{}}
	c.loadRecent(ctx)
	exp := Expand(q, l.home)
	switch {
	case q == "":
		c.addRecent("")
		for _, r := range l.roots {
			c.add(conv.Folder{Path: r.path, Root: true}, r.real)
		}
		for _, r := range l.roots {
			c.children(r.path, r.real, "", false)
		}
	case filepath.IsAbs(exp):
		c.path(exp, q == "~" || strings.HasSuffix(q, "/"))
	default:
		c.addRecent(q)
		for _, r := range l.roots {
			c.children(r.path, r.real, q, true)
		}
	}
	return c.result(limit), nil
}

// checkQuery refuses what no folder path needs and what could climb out
// of a root by spelling.
func checkQuery(q string) error {
	if len(q) > maxQuery {
		return conv.Errorf(conv.EInvalid, "the folder query is longer than %d bytes", maxQuery)
	}
	if !utf8.ValidString(q) {
		return conv.Errorf(conv.EInvalid, "the folder query is not valid UTF-8")
	}
	for _, r := range q {
		if unicode.IsControl(r) {
			return conv.Errorf(conv.EInvalid, "the folder query contains the control character %U", r)
		}
	}
	for _, part := range strings.Split(q, "/") {
		if part == ".." {
			return conv.Errorf(conv.EInvalid, `".." is not allowed in a folder query`)
		}
	}
	return nil
}

// within reports whether the resolved path real lies in a root.
func (l *Lister) within(real string) bool {
	for _, r := range l.roots {
		if real == r.real || r.real == "/" || strings.HasPrefix(real, r.real+"/") {
			return true
		}
	}
	return false
}

// collector gathers candidates for one query.
type collector struct {
	l         *Lister
	recent    []string
	recentAt  map[string]int // path (given or resolved) -> rank, 0 is newest
	seen      map[string]bool
	out       []candidate
	truncated bool
}

type candidate struct {
	conv.Folder
	recentRank int    // -1 when not recent
	key        string // the path lowercased, for ordering
}

func (c *collector) loadRecent(ctx context.Context) {
	c.recentAt = map[string]int{}
	if c.l.recent == nil {
		return
	}
	for _, p := range c.l.recent(ctx) {
		if len(c.recent) == recentMax {
			break
		}
		if !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if _, dup := c.recentAt[p]; dup {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !c.l.within(real) || !isDir(real) {
			continue
		}
		rank := len(c.recent)
		c.recent = append(c.recent, p)
		c.recentAt[p] = rank
		if _, ok := c.recentAt[real]; !ok {
			c.recentAt[real] = rank
		}
	}
}

// addRecent adds the recent folders whose base name holds term.
func (c *collector) addRecent(term string) {
	t := strings.ToLower(term)
	for _, p := range c.recent {
		if t == "" || strings.Contains(strings.ToLower(filepath.Base(p)), t) {
			real, _ := filepath.EvalSymlinks(p)
			c.add(conv.Folder{Path: p}, real)
		}
	}
}

// add keeps f (whose resolved path is real) once.
func (c *collector) add(f conv.Folder, real string) {
	if c.seen[f.Path] {
		return
	}
	c.seen[f.Path] = true
	rank, ok := c.recentAt[f.Path]
	if !ok {
		rank, ok = c.recentAt[real]
	}
	if !ok {
		rank = -1
	}
	f.Recent = ok
	f.Git = isGit(real)
	c.out = append(c.out, candidate{Folder: f, recentRank: rank, key: strings.ToLower(f.Path)})
}

// path lists the folder a typed path points into.
func (c *collector) path(p string, childrenOnly bool) {
	p = filepath.Clean(p)
	dir, prefix := filepath.Dir(p), filepath.Base(p)
	if childrenOnly {
		dir, prefix = p, ""
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil && c.l.within(real) {
		c.children(dir, real, prefix, false)
		return
	}
	// Above or beside the roots: offer the roots and recent folders the
	// typed path leads to, nothing from the disk.
	for _, r := range c.l.roots {
		if hasPathPrefix(r.path, p) {
			c.add(conv.Folder{Path: r.path, Root: true}, r.real)
		}
	}
	for _, rp := range c.recent {
		if hasPathPrefix(rp, p) {
			real, _ := filepath.EvalSymlinks(rp)
			c.add(conv.Folder{Path: rp}, real)
		}
	}
}

// hasPathPrefix reports whether path starts with typed, case-insensitively.
func hasPathPrefix(path, typed string) bool {
	return strings.HasPrefix(strings.ToLower(path), strings.ToLower(typed))
}

// children adds the directories in dir (resolved: real) whose names start
// with (or, when anywhere, hold) name.
func (c *collector) children(dir, real, name string, anywhere bool) {
	f, err := os.Open(real)
	if err != nil {
		return
	}
	defer f.Close()
	lname := strings.ToLower(name)
	showHidden := strings.HasPrefix(name, ".")
	scanned := 0
	for {
		ents, err := f.ReadDir(512)
		for _, e := range ents {
			scanned++
			n := e.Name()
			if strings.HasPrefix(n, ".") && !showHidden {
				continue
			}
			ln := strings.ToLower(n)
			if anywhere && !strings.Contains(ln, lname) || !anywhere && !strings.HasPrefix(ln, lname) {
				continue
			}
			target := filepath.Join(real, n)
			switch {
			case e.IsDir():
			case e.Type()&os.ModeSymlink != 0:
				t, err := filepath.EvalSymlinks(target)
				if err != nil || !c.l.within(t) || !isDir(t) {
					continue
				}
				target = t
			default:
				continue
			}
			c.add(conv.Folder{Path: filepath.Join(dir, n)}, target)
		}
		if scanned >= scanMax {
			c.truncated = true
			return
		}
		if err == io.EOF || len(ents) == 0 || err != nil {
			return
		}
	}
}

// result orders the candidates, recent first (newest first), then roots,
// then git repositories, then by name, and cuts them to limit.
func (c *collector) result(limit int) conv.FolderList {
	sort.SliceStable(c.out, func(i, j int) bool {
		a, b := &c.out[i], &c.out[j]
		if (a.recentRank >= 0) != (b.recentRank >= 0) {
			return a.recentRank >= 0
		}
		if a.recentRank != b.recentRank {
			return a.recentRank < b.recentRank
		}
		if a.Root != b.Root {
			return a.Root
		}
		if a.Git != b.Git {
			return a.Git
		}
		return a.key < b.key
	})
	out := conv.FolderList{Folders: []conv.Folder{}, Roots: c.l.Roots(), Home: c.l.home, Truncated: c.truncated}
	for i, f := range c.out {
		if i == limit {
			out.Truncated = true
			break
		}
		out.Folders = append(out.Folders, f.Folder)
	}
	return out
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isGit reports whether dir holds a .git folder or file (a worktree).
func isGit(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}
