package folders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lab/internal/conv"
)

// tree builds a home with projects, a git repo, a hidden folder, a file,
// and symlinks pointing inside and outside the root; outside is a sibling
// of home that must never be listed.
func tree(t *testing.T) (home, outside string) {
	t.Helper()
	base := t.TempDir()
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	home, outside = filepath.Join(base, "home"), filepath.Join(base, "outside")
	for _, d := range []string{"src/alpha/.git", "src/beta", "src/Gamma", "notes", ".config/x", "docs"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(outside, "secret"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "src", "file.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(home, "docs", ".git"), []byte("gitdir: elsewhere"), 0o644) // a worktree
	os.Symlink(filepath.Join(home, "notes"), filepath.Join(home, "src", "notes-link"))
	os.Symlink(outside, filepath.Join(home, "src", "escape"))
	os.Symlink(outside, filepath.Join(home, "escape"))
	return home, outside
}

func paths(l conv.FolderList) []string {
	var out []string
	for _, f := range l.Folders {
		out = append(out, f.Path)
	}
	return out
}

func list(t *testing.T, l *Lister, q string) conv.FolderList {
	t.Helper()
	got, err := l.List(context.Background(), q, 0)
	if err != nil {
		t.Fatalf("List(%q): %v", q, err)
	}
	return got
}

func TestListsDirectoriesUnderTheRoot(t *testing.T) {
	home, _ := tree(t)
	recent := []string{filepath.Join(home, "src", "beta"), "/nonexistent/x", filepath.Join(home, "src", "beta")}
	l, err := New(nil, home, func(context.Context) []string { return recent })
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(home, "src")
	cases := []struct {
		name, q string
		want    []string
	}{
		// Recent first, then git repos, then by name; no file, no hidden
		// folder, no symlink leading out of the root.
		{"children after a slash", src + "/", []string{src + "/beta", src + "/alpha", src + "/Gamma", src + "/notes-link"}},
		{"tilde path", "~/src/", []string{src + "/beta", src + "/alpha", src + "/Gamma", src + "/notes-link"}},
		{"prefix, case-insensitive", src + "/g", []string{src + "/Gamma"}},
		{"hidden only when typed", "~/.c", []string{home + "/.config"}},
		{"tilde alone lists home", "~", []string{home + "/docs", home + "/notes", home + "/src"}},
		{"a word searches recent and root children", "no", []string{home + "/notes"}},
		{"a word finds recent folders deep down", "bet", []string{src + "/beta"}},
		{"above the root offers the root and recent folders", filepath.Dir(home) + "/h", []string{src + "/beta", home}},
		{"a missing folder lists nothing", src + "/nope/", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := paths(list(t, l, c.q))
			if !slices.Equal(got, c.want) {
				t.Fatalf("List(%q) = %q; want %q", c.q, got, c.want)
			}
		})
	}

	empty := list(t, l, "")
	if got := paths(empty); len(got) < 2 || got[0] != src+"/beta" || got[1] != home {
		t.Fatalf("empty query: got %q; want the recent folder, then the root first", got)
	}
	if !empty.Folders[0].Recent || !empty.Folders[1].Root || empty.Home != home || !slices.Equal(empty.Roots, []string{home}) {
		t.Fatalf("empty query flags: %+v", empty)
	}
	var docs conv.Folder
	for _, f := range empty.Folders {
		if f.Path == home+"/docs" {
			docs = f
		}
	}
	if !docs.Git {
		t.Fatalf("a folder with a .git file (a worktree) is a git repository: %+v", empty.Folders)
	}
}

func TestNeverLeavesARoot(t *testing.T) {
	home, outside := tree(t)
	l, err := New([]string{"~/src"}, home, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{outside + "/", home + "/", "/", "~/escape/", "~/src/escape/", home + "/src/escape/", "~/src/notes-link/"} {
		for _, f := range list(t, l, q).Folders {
			real, _ := filepath.EvalSymlinks(f.Path)
			if real != filepath.Join(home, "src") && !hasPathPrefix(real, filepath.Join(home, "src")+"/") {
				t.Errorf("List(%q) offered %s (%s), outside the root", q, f.Path, real)
			}
		}
	}
	for _, q := range []string{"~/src/../", "../x", home + "/src/../..", "..", "a\x00b", "a\nb"} {
		if _, err := l.List(context.Background(), q, 0); conv.KindOf(err) != conv.EInvalid {
			t.Errorf("List(%q): got %v; want an invalid-input error", q, err)
		}
	}
}

func TestBoundedResults(t *testing.T) {
	home := t.TempDir()
	for i := range 300 {
		os.Mkdir(filepath.Join(home, fmt.Sprintf("d%03d", i)), 0o755)
	}
	l, err := New([]string{home}, home, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := l.List(context.Background(), home+"/", 0)
	if len(got.Folders) != DefaultLimit || !got.Truncated {
		t.Fatalf("got %d folders, truncated %v; want %d and truncated", len(got.Folders), got.Truncated, DefaultLimit)
	}
	got, _ = l.List(context.Background(), home+"/", 10000)
	if len(got.Folders) != MaxLimit || !got.Truncated {
		t.Fatalf("got %d folders; want the cap %d", len(got.Folders), MaxLimit)
	}
	got, _ = l.List(context.Background(), home+"/d29", 0)
	if len(got.Folders) != 10 || got.Truncated {
		t.Fatalf("got %d folders, truncated %v; want d290..d299", len(got.Folders), got.Truncated)
	}
}

func TestBadRoots(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "f"), nil, 0o644)
	for _, r := range []string{"relative", filepath.Join(home, "missing"), filepath.Join(home, "f")} {
		if _, err := New([]string{r}, home, nil); err == nil {
			t.Errorf("New(%q): want an error", r)
		}
	}
}

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{"~": "/h/me", "~/a/b": "/h/me/a/b", "~x/a": "~x/a", "/abs": "/abs", "rel": "rel", "": ""} {
		if got := Expand(in, "/h/me"); got != want {
			t.Errorf("Expand(%q) = %q; want %q", in, got, want)
		}
	}
}
