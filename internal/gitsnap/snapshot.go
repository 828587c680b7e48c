package gitsnap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Store is lab's private place for one run's snapshots: a bare git
// repository of lab's whose object store borrows the operator's objects
// (an alternate), and an index file. Snapshots are written with the
// operator's working tree and git folder (their ignore rules and config
// apply) but this index and object store; everything else reads the store
// alone, so old snapshots stay readable after the folder is gone. Its
// methods are safe for concurrent use; snapshots of one store take turns
// (they share its index).
type Store struct {
	dir string

	mu     sync.Mutex
	seeded bool // the index exists (or was found to) since this Store was made
}

// NewStore returns the store in dir (created on the first snapshot).
func NewStore(dir string) *Store { return &Store{dir: dir} }

func (s *Store) index() string   { return filepath.Join(s.dir, "index") }
func (s *Store) objects() string { return filepath.Join(s.dir, "objects") }

// writer runs git in the operator's working tree (top) with the store's
// index and object store: what a snapshot writes goes to lab's store.
// Git LFS's clean filter is turned off for it: it would store each
// changed large file under the repository's .git/lfs; the snapshot takes
// the file's content as it is instead.
func (s *Store) writer(top string) gitCmd {
	return gitCmd{dir: top, env: []string{
		"GIT_INDEX_FILE=" + s.index(),
		"GIT_OBJECT_DIRECTORY=" + s.objects(),
		"GIT_LITERAL_PATHSPECS=1",
		"GIT_CONFIG_COUNT=3",
		"GIT_CONFIG_KEY_0=filter.lfs.clean", "GIT_CONFIG_VALUE_0=",
		"GIT_CONFIG_KEY_1=filter.lfs.process", "GIT_CONFIG_VALUE_1=",
		"GIT_CONFIG_KEY_2=filter.lfs.required", "GIT_CONFIG_VALUE_2=false",
	}}
}

// reader runs git on the store alone (the repository's objects come in
// through its alternates file).
func (s *Store) reader() gitCmd {
	return gitCmd{dir: s.dir, env: []string{"GIT_DIR=" + s.dir, "GIT_LITERAL_PATHSPECS=1"}}
}

// Snapshot records repo's folder (the subtree at repo.Prefix) as it is
// now and returns the tree's id. Files git cannot read are left out (git
// warns; the snapshot still succeeds).
func (s *Store) Snapshot(ctx context.Context, repo Repo) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.prepare(ctx, repo); err != nil {
		return "", err
	}
	tree, err := s.snapshot(ctx, repo)
	if err != nil && s.seeded {
		// A seed copied from an index this git cannot use (another
		// format, a split index whose shared part is gone): start over
		// from an empty index, slower but sure.
		os.Remove(s.index())
		s.seeded = false
		tree, err = s.snapshot(ctx, repo)
	}
	return tree, err
}

func (s *Store) snapshot(ctx context.Context, repo Repo) (string, error) {
	g := s.writer(repo.Top)
	// --ignore-errors: an unreadable file must not cost the whole
	// snapshot; git still exits non-zero, so its result is only known
	// from write-tree.
	_, addErr := g.run(ctx, "add", "--all", "--ignore-errors", "--", repo.pathspec())
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	args := []string{"write-tree"}
	if repo.Prefix != "" {
		args = append(args, "--prefix="+repo.Prefix)
	}
	out, err := g.run(ctx, args...)
	if err != nil {
		if strings.Contains(stderrOf(err), "not found") && repo.Prefix != "" {
			// Nothing in the folder is tracked or addable: an empty tree.
			return s.emptyTree(ctx)
		}
		if addErr != nil {
			return "", fmt.Errorf("%w (after %v)", err, addErr)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// emptyTree is the id of the empty tree in the repository's hash.
func (s *Store) emptyTree(ctx context.Context) (string, error) {
	out, err := s.reader().run(ctx, "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// prepare makes the store (a bare repository in the repository's hash),
// points its alternates at the repository's objects, clears a lock a
// killed git left, and seeds the index from the operator's the first
// time.
func (s *Store) prepare(ctx context.Context, repo Repo) error {
	if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); err != nil {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return fmt.Errorf("snapshot store: %w", err)
		}
		format := repo.Format
		if format == "" {
			format = "sha1"
		}
		if _, err := (gitCmd{dir: s.dir}).run(ctx, "init", "--bare", "--quiet", "--template=", "--object-format="+format, s.dir); err != nil {
			return fmt.Errorf("snapshot store: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(s.objects(), "info"), 0o700); err != nil {
		return fmt.Errorf("snapshot store: %w", err)
	}
	alt := filepath.Join(s.objects(), "info", "alternates")
	if b, err := os.ReadFile(alt); err != nil || strings.TrimSpace(string(b)) != repo.Objects {
		if err := os.WriteFile(alt, []byte(repo.Objects+"\n"), 0o600); err != nil {
			return fmt.Errorf("snapshot store: %w", err)
		}
	}
	if s.seeded {
		return nil
	}
	// Only this Store writes the index, under s.mu: a lock file found
	// before its first use was left by a git that was killed.
	os.Remove(s.index() + ".lock")
	if _, err := os.Stat(s.index()); err == nil {
		s.seeded = true
		return nil
	}
	if err := copyIndex(filepath.Join(repo.GitDir, "index"), s.index()); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("snapshot store: seed the index: %w", err)
		}
		return nil // a repository without an index yet: start empty
	}
	s.seeded = true
	return nil
}

// copyIndex copies the operator's index to dst with its mtime, so entries
// git would re-check against the original are re-checked against the
// copy too. The original is only read (git replaces it by rename, so a
// read sees one whole version).
func copyIndex(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	tmp := dst + ".seed"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chtimes(tmp, info.ModTime(), info.ModTime()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}

// Drop deletes the store and every snapshot in it.
func (s *Store) Drop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seeded = false
	return os.RemoveAll(s.dir)
}
