// Package uploads keeps the files the operator sends lab for an agent:
// photos and files attached to a reply or to a new run's first prompt.
// Each upload is written under a private folder (a run's own, or the
// staging folder for a run about to start) as a 0600 file that lab names
// itself, with its type sniffed from its bytes; a declared image whose
// bytes are not one, or a file over the size limit, is refused and
// nothing is kept. The agent CLIs get the files by path (internal/agent
// says how each CLI takes them).
package uploads

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"lab/internal/conv"
)

// DefaultMax bounds an upload: a phone's photo with room to spare, far
// below what would strain the CLI that reads it.
const DefaultMax = 20 << 20

// Dir is the folder an upload lives in inside a run's folder.
const Dir = "uploads"

// StagingTTL is how long an upload staged for a run that never started
// is kept.
const StagingTTL = 24 * time.Hour

// Store writes and finds uploads. Its methods are safe for concurrent use
// (each upload is its own file, written under a temporary name and
// renamed into place).
type Store struct {
	// Staging is the folder of uploads for runs about to start.
	Staging string
	// Max bounds an upload's size in bytes (DefaultMax when 0).
	Max int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

func (s *Store) max() int64 {
	if s.Max > 0 {
		return s.Max
	}
	return DefaultMax
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// RunDir is where the uploads of the run whose folder is runDir live.
func RunDir(runDir string) string { return filepath.Join(runDir, Dir) }

// Put stores what r yields as a new upload in dir (created 0700 if
// missing), named after name (sanitised; never trusted as a path) with
// the extension of the type its bytes show. declared is the type the
// client gave ("" if none). Errors: ETooLarge past Max (nothing kept),
// EInvalid for an empty file or a declared image whose bytes are not one
// (nothing kept), EInternal when the disk fails.
func (s *Store) Put(dir, name, declared string, r io.Reader) (conv.Upload, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "create the uploads folder")
	}
	id, err := newID()
	if err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "make an upload id")
	}
	tmp := filepath.Join(dir, "."+id+".part")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "store the upload")
	}
	kept := false
	defer func() {
		if !kept {
			f.Close()
			os.Remove(tmp)
		}
	}()
	n, err := io.Copy(f, io.LimitReader(r, s.max()+1))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return conv.Upload{}, tooLarge(s.max())
		}
		return conv.Upload{}, conv.Wrap(conv.EInvalid, err, "reading the upload failed")
	}
	if n > s.max() {
		return conv.Upload{}, tooLarge(s.max())
	}
	if n == 0 {
		return conv.Upload{}, conv.Errorf(conv.EInvalid, "the file %q is empty", displayName(name))
	}
	if err := f.Sync(); err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "store the upload")
	}
	head, err := readHead(tmp)
	if err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "read the upload back")
	}
	typ, err := check(tmp, head, name, declared)
	if err != nil {
		return conv.Upload{}, err
	}
	final := filepath.Join(dir, id+"-"+FileName(name, typ))
	if err := f.Close(); err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "store the upload")
	}
	if err := os.Rename(tmp, final); err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "store the upload")
	}
	kept = true
	return conv.Upload{ID: id, Name: filepath.Base(final)[len(id)+1:], MediaType: typ, Size: n, Path: final}, nil
}

func tooLarge(max int64) error {
	return conv.Errorf(conv.ETooLarge, "the file is larger than %s; lab takes files up to that size", humanBytes(max))
}

// Get returns upload id of dir. ENotFound when dir holds no such upload,
// EInvalid for a malformed id.
func (s *Store) Get(dir, id string) (conv.Upload, error) {
	if !ValidID(id) {
		return conv.Upload{}, conv.Errorf(conv.EInvalid, "upload id %q is malformed", id)
	}
	m, err := filepath.Glob(filepath.Join(dir, id+"-*"))
	if err != nil || len(m) != 1 {
		return conv.Upload{}, conv.Errorf(conv.ENotFound, "no upload %s here (staged uploads are kept %s; a run's own only for that run)", id, StagingTTL)
	}
	path := m[0]
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return conv.Upload{}, conv.Errorf(conv.ENotFound, "no upload %s here", id)
	}
	head, err := readHead(path)
	if err != nil {
		return conv.Upload{}, conv.Wrap(conv.EInternal, err, "read upload "+id)
	}
	return conv.Upload{ID: id, Name: filepath.Base(path)[len(id)+1:], MediaType: Sniff(head), Size: info.Size(), Path: path}, nil
}

// Stage stores an upload for a run about to start (see Put), dropping
// staged uploads older than StagingTTL first.
func (s *Store) Stage(name, declared string, r io.Reader) (conv.Upload, error) {
	s.sweep()
	return s.Put(s.Staging, name, declared, r)
}

// Claim moves staged uploads into dir (a run's uploads folder) and
// returns them in the order asked. Each id at most once. EInvalid for an
// unknown or repeated id: nothing is moved then.
func (s *Store) Claim(ids []string, dir string) ([]conv.Upload, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	ups := make([]conv.Upload, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			return nil, conv.Errorf(conv.EInvalid, "upload %s is listed twice", id)
		}
		seen[id] = true
		u, err := s.Get(s.Staging, id)
		if err != nil {
			return nil, conv.Wrap(conv.EInvalid, err, fmt.Sprintf("upload %s: %s", id, conv.MessageOf(err)))
		}
		ups = append(ups, u)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "create the run's uploads folder")
	}
	for i, u := range ups {
		to := filepath.Join(dir, filepath.Base(u.Path))
		if err := os.Rename(u.Path, to); err != nil {
			s.Return(ups[:i]) // the ones moved go back: a retry finds them all
			return nil, conv.Wrap(conv.EInternal, err, "move upload "+u.ID+" to its run")
		}
		ups[i].Path = to
	}
	return ups, nil
}

// Return moves claimed uploads back to staging, for a start that failed
// after Claim: the operator's files wait for the next try, nothing lost.
func (s *Store) Return(ups []conv.Upload) {
	for _, u := range ups {
		os.Rename(u.Path, filepath.Join(s.Staging, filepath.Base(u.Path))) // a file gone is the staging sweep's
	}
}

// sweep drops staged uploads (and broken partial files) past StagingTTL.
func (s *Store) sweep() {
	if s.Staging == "" {
		return
	}
	cut := s.now().Add(-StagingTTL)
	filepath.WalkDir(s.Staging, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(cut) {
			os.Remove(path)
		}
		return nil
	})
}

// ValidID reports whether id has the shape of an upload id.
func ValidID(id string) bool {
	if len(id) != conv.UploadIDLen {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func newID() (string, error) {
	b := make([]byte, conv.UploadIDLen/2)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
