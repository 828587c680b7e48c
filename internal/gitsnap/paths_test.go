package gitsnap

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCleanRel(t *testing.T) {
	for _, c := range []struct {
		in, want string
		outside  bool
		bad      bool
	}{
		{in: "a.txt", want: "a.txt"},
		{in: "dir/./b c.txt", want: "dir/b c.txt"},
		{in: "naïve/café.md", want: "naïve/café.md"},
		{in: "a//b/", want: "a/b"},
		{in: "../etc/passwd", outside: true},
		{in: "a/../../x", outside: true},
		{in: "a/..", outside: true},
		{in: "/etc/passwd", outside: true},
		{in: "", bad: true},
		{in: ".", bad: true},
		{in: "a\x00b", bad: true},
	} {
		got, err := CleanRel(c.in)
		switch {
		case c.outside:
			if !errors.Is(err, ErrOutside) {
				t.Errorf("CleanRel(%q) = %q, %v; want ErrOutside", c.in, got, err)
			}
		case c.bad:
			if err == nil {
				t.Errorf("CleanRel(%q) = %q; want an error", c.in, got)
			}
		case err != nil || got != c.want:
			t.Errorf("CleanRel(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// Resolve follows symbolic links and refuses those that lead out of the
// folder, however they get there.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, root, map[string]string{"in.txt": "in\n", "dir/deep.txt": "deep\n"})
	write(t, outside, map[string]string{"secret.txt": "secret\n"})
	for name, target := range map[string]string{
		"to-outside":     outside,
		"secret-link":    filepath.Join(outside, "secret.txt"),
		"dir/up":         "../..",
		"inside-link":    "in.txt",
		"dir/inside-dir": "..",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel     string
		outside bool
		missing bool
	}{
		{rel: "in.txt"},
		{rel: "dir/deep.txt"},
		{rel: "inside-link"},
		{rel: "dir/inside-dir/in.txt"},
		{rel: "to-outside/secret.txt", outside: true},
		{rel: "secret-link", outside: true},
		{rel: "dir/up", outside: true},
		{rel: "nope.txt", missing: true},
	} {
		got, err := Resolve(root, c.rel)
		switch {
		case c.outside:
			if !errors.Is(err, ErrOutside) {
				t.Errorf("Resolve(%q) = %q, %v; want ErrOutside", c.rel, got, err)
			}
		case c.missing:
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Resolve(%q) = %q, %v; want ErrNotExist", c.rel, got, err)
			}
		case err != nil:
			t.Errorf("Resolve(%q): %v", c.rel, err)
		}
	}
}
