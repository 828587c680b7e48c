package gitsnap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrOutside is returned for a path that leaves the folder it must stay
// in: absolute, climbing with "..", or through a symbolic link that
// points out.
var ErrOutside = errors.New("the path leaves the run's folder")

// CleanRel checks p, a path a client names relative to a folder, and
// returns it clean and slash-separated. Empty, absolute and climbing
// ("..") paths and NUL bytes are refused with ErrOutside (wrapped) or a
// plain error.
func CleanRel(p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("a path is required")
	case strings.ContainsRune(p, 0):
		return "", errors.New("the path holds a NUL byte")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p):
		return "", fmt.Errorf("%q is absolute: %w", p, ErrOutside)
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return "", fmt.Errorf("%q climbs out with \"..\": %w", p, ErrOutside)
		}
	}
	c := path.Clean(p)
	if c == "." {
		return "", errors.New("a file path is required, not the folder itself")
	}
	return c, nil
}

// Resolve returns the real location of rel (a CleanRel path) inside
// root, every symbolic link on the way followed, and refuses with
// ErrOutside one that ends outside root. A missing file is reported as
// fs.ErrNotExist (wrapped).
func Resolve(root, rel string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	full, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
		}
		return "", err
	}
	if full != realRoot && !strings.HasPrefix(full, realRoot+string(os.PathSeparator)) {
		return "", fmt.Errorf("%q leads to %s through a symbolic link: %w", rel, full, ErrOutside)
	}
	return full, nil
}
