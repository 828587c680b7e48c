package changes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"

	"lab/internal/conv"
	"lab/internal/gitsnap"
	"lab/internal/store"
	"lab/internal/udiff"
)

// Limits of what is shown. A diff is never cut: a side past maxDiffBytes
// is said to be too large instead. A file view is cut at maxFileBytes
// and says so.
const (
	maxDiffBytes = 1 << 20
	maxFileBytes = 256 << 10
)

// compared is a run's base snapshot and what it is compared with.
type compared struct {
	rec     store.RunRecord
	st      *gitsnap.Store
	base    store.Snapshot
	latest  store.Snapshot
	to      string // the tree now
	current string // "folder" or "snapshot"
}

// compare picks the run's base snapshot for since and takes the folder's
// tree now (its last snapshot when the folder is gone). Returns
// ENotFound, EInvalid for an unknown since, EConflict when the run has no
// snapshots (not a git repository: the message says so).
func (s *Service) compare(ctx context.Context, runID string, since conv.Since) (compared, error) {
	if since == "" {
		since = conv.SinceStart
	}
	if since != conv.SinceStart && since != conv.SinceTurn {
		return compared{}, conv.Errorf(conv.EInvalid, "since=%q: want start or turn", since)
	}
	rec, err := s.db.GetRun(ctx, runID)
	if err != nil {
		return compared{}, err
	}
	snaps, err := s.db.Snapshots(ctx, runID)
	if err != nil {
		return compared{}, err
	}
	if len(snaps) == 0 {
		return compared{}, s.noSnapshots(ctx, rec)
	}
	c := compared{rec: rec, st: s.storeOf(rec), base: s.baseFor(runID, snaps, since), latest: snaps[len(snaps)-1]}
	repo, err := gitsnap.Open(ctx, rec.Cwd)
	switch {
	case err == nil:
		c.to, err = c.st.Snapshot(ctx, repo)
		if err != nil {
			return compared{}, conv.Wrap(conv.EInternal, err, "snapshot the run's folder")
		}
		c.current = "folder"
	case folderGone(rec.Cwd):
		c.to, c.current = snaps[len(snaps)-1].Tree, "snapshot"
	default:
		return compared{}, conv.Wrap(conv.EConflict, err, "the run's folder "+rec.Cwd+" can no longer be read as a git repository")
	}
	return c, nil
}

// noSnapshots says why a run has no snapshots.
func (s *Service) noSnapshots(ctx context.Context, rec store.RunRecord) error {
	if rec.ArchivedAt != nil {
		return conv.Errorf(conv.EConflict, "this run's snapshots were dropped when it was archived")
	}
	if rec.Attached() {
		return conv.Errorf(conv.EConflict, "lab did not start this run, so it has no snapshot of its folder from the start")
	}
	if _, err := gitsnap.Open(ctx, rec.Cwd); isNotRepo(err) {
		return conv.Errorf(conv.EConflict, "changes need a git repository: %s is not in one", rec.Cwd)
	}
	return conv.Errorf(conv.EConflict, "lab has no snapshot of this run's folder: the run started before lab kept them, or the snapshot failed (see lab's log)")
}

// baseFor is the snapshot since counts from: the start one, or the one
// the current turn began from: the last snapshot while a turn is under
// way, else the last one taken before the latest turn ended.
func (s *Service) baseFor(runID string, snaps []store.Snapshot, since conv.Since) store.Snapshot {
	if since == conv.SinceStart {
		return snaps[0]
	}
	s.mu.Lock()
	ts, live := s.turns[runID]
	s.mu.Unlock()
	if !live {
		// Ended (or not heard from yet): the last turn is the last
		// snapshot's.
		ts = turnState{prompts: snaps[len(snaps)-1].Prompts, state: conv.StateEnded}
	}
	if !turnOver(ts.state) {
		return snaps[len(snaps)-1]
	}
	base := snaps[0]
	for _, sn := range snaps {
		if sn.Prompts < ts.prompts {
			base = sn
		}
	}
	return base
}

// Changes lists the files of the run's folder that differ from the start
// snapshot (since start) or the one the current turn began from (since
// turn). Returns ENotFound, EInvalid, EConflict (see compare).
func (s *Service) Changes(ctx context.Context, runID string, since conv.Since) (conv.Changes, error) {
	c, err := s.compare(ctx, runID, since)
	if err != nil {
		return conv.Changes{}, err
	}
	list, err := c.st.Diff(ctx, c.base.Tree, c.to)
	if err != nil {
		return conv.Changes{}, conv.Wrap(conv.EInternal, err, "compare the snapshots")
	}
	out := conv.Changes{Since: sinceOr(since), Base: info(c.base), Latest: info(c.latest), Current: c.current, Files: make([]conv.FileChange, 0, len(list))}
	for _, ch := range list {
		fc := conv.FileChange{Path: ch.Path, OldPath: ch.OldPath, Status: conv.FileStatus(ch.Status), Binary: ch.Binary,
			Submodule: ch.Submodule(), Added: ch.Added, Removed: ch.Removed}
		out.Added += ch.Added
		out.Removed += ch.Removed
		out.Files = append(out.Files, fc)
	}
	return out, nil
}

func sinceOr(s conv.Since) conv.Since {
	if s == "" {
		return conv.SinceStart
	}
	return s
}

func info(sn store.Snapshot) conv.SnapshotInfo {
	return conv.SnapshotInfo{TakenAt: sn.TakenAt, Turn: sn.Prompts}
}

// Diff returns one changed file's unified diff. Returns EInvalid for a
// path that is not a clean path inside the folder, ENotFound when the
// file did not change, and what compare returns.
func (s *Service) Diff(ctx context.Context, runID, path string, since conv.Since) (conv.FileDiff, error) {
	rel, err := checkPath(path)
	if err != nil {
		return conv.FileDiff{}, err
	}
	c, err := s.compare(ctx, runID, since)
	if err != nil {
		return conv.FileDiff{}, err
	}
	ch, ok, err := c.st.Find(ctx, c.base.Tree, c.to, rel)
	if err != nil {
		return conv.FileDiff{}, conv.Wrap(conv.EInternal, err, "compare the snapshots")
	}
	if !ok {
		return conv.FileDiff{}, conv.Errorf(conv.ENotFound, "%s has not changed since %s", rel, sinceWords(sinceOr(since)))
	}
	return s.fileDiff(ctx, c.st, ch)
}

func sinceWords(s conv.Since) string {
	if s == conv.SinceTurn {
		return "this turn began"
	}
	return "the run started"
}

// fileDiff reads both sides of a change and diffs them, or says why not.
func (s *Service) fileDiff(ctx context.Context, st *gitsnap.Store, ch gitsnap.Change) (conv.FileDiff, error) {
	d := conv.FileDiff{Path: ch.Path, OldPath: ch.OldPath, Status: conv.FileStatus(ch.Status)}
	if ch.Submodule() {
		d.Note = fmt.Sprintf("a submodule: its commit changed from %s to %s", short(ch.OldID), short(ch.NewID))
		return d, nil
	}
	var sides [2][]byte
	for i, id := range []string{ch.OldID, ch.NewID} {
		if id == "" {
			continue
		}
		n, err := st.Size(ctx, id)
		if err != nil {
			d.Note = "the " + []string{"old", "new"}[i] + " content is gone from git (pruned by git gc?)"
			return d, nil
		}
		if i == 0 {
			d.OldSize = n
		} else {
			d.NewSize = n
		}
		if n > maxDiffBytes {
			d.TooLarge = true
			continue
		}
		if sides[i], err = st.Blob(ctx, id); err != nil {
			return d, conv.Wrap(conv.EInternal, err, "read a snapshot")
		}
	}
	if d.TooLarge {
		d.Note = fmt.Sprintf("too large to diff here (%d → %d bytes; lab diffs files up to %d KiB): compare it with git", d.OldSize, d.NewSize, maxDiffBytes>>10)
		return d, nil
	}
	if gitsnap.LooksBinary(sides[0]) || gitsnap.LooksBinary(sides[1]) {
		d.Binary = true
		d.Note = fmt.Sprintf("a binary file (%d → %d bytes): no lines to show", d.OldSize, d.NewSize)
		return d, nil
	}
	d.Diff = udiff.Unified(ch.Path, string(sides[0]), string(sides[1]))
	if d.Diff == "" {
		d.Note = "only the file's mode or name changed"
	}
	return d, nil
}

func short(id string) string {
	if id == "" {
		return "none"
	}
	return id[:min(len(id), 12)]
}

// File returns a file of the run's folder as it is now, cut at a cap.
// Works in any folder (no git needed). Returns EInvalid for a path that
// leaves the folder (also through a symbolic link) or is a folder,
// ENotFound for a file that is not there.
func (s *Service) File(ctx context.Context, runID, path string) (conv.FileView, error) {
	rec, err := s.db.GetRun(ctx, runID)
	if err != nil {
		return conv.FileView{}, err
	}
	return readFile(rec.Cwd, path)
}

// readFile reads path inside folder for a file view.
func readFile(folder, path string) (conv.FileView, error) {
	rel, err := checkPath(path)
	if err != nil {
		return conv.FileView{}, err
	}
	full, err := gitsnap.Resolve(folder, rel)
	switch {
	case errors.Is(err, gitsnap.ErrOutside):
		return conv.FileView{}, conv.Wrap(conv.EInvalid, err, rel+" leads out of the folder")
	case errors.Is(err, fs.ErrNotExist):
		return conv.FileView{}, conv.Errorf(conv.ENotFound, "%s is not in the folder", rel)
	case err != nil:
		return conv.FileView{}, conv.Wrap(conv.EInternal, err, "find "+rel)
	}
	f, err := os.Open(full)
	if err != nil {
		return conv.FileView{}, conv.Wrap(conv.EInternal, err, "open "+rel)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return conv.FileView{}, conv.Wrap(conv.EInternal, err, "open "+rel)
	}
	if fi.IsDir() {
		return conv.FileView{}, conv.Errorf(conv.EInvalid, "%s is a folder", rel)
	}
	if !fi.Mode().IsRegular() {
		return conv.FileView{}, conv.Errorf(conv.EInvalid, "%s is not a regular file", rel)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return conv.FileView{}, conv.Wrap(conv.EInternal, err, "read "+rel)
	}
	v := conv.FileView{Path: rel, Size: fi.Size()}
	if gitsnap.LooksBinary(b) {
		v.Binary = true
		return v, nil
	}
	if len(b) > maxFileBytes {
		// Cut before the rune the cap falls in.
		cut := maxFileBytes
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b, v.Truncated = b[:cut], true
	}
	v.Text = string(b)
	return v, nil
}

// checkPath cleans a client's path, refusing what leaves the folder.
func checkPath(p string) (string, error) {
	rel, err := gitsnap.CleanRel(p)
	if err != nil {
		return "", conv.Wrap(conv.EInvalid, err, "path: "+err.Error())
	}
	return rel, nil
}

func isNotRepo(err error) bool { return errors.Is(err, gitsnap.ErrNotRepo) }

// folderGone reports whether dir no longer exists.
func folderGone(dir string) bool {
	_, err := os.Stat(dir)
	return errors.Is(err, fs.ErrNotExist)
}
