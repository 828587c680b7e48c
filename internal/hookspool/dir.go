package hookspool

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Key names and orders one spooled file: by the hook's start time, then
// pid, then name, so a fold over the files is deterministic.
type Key struct {
	Event string
	Nanos int64 // when the hook started, Unix nanoseconds
	PID   int
	Name  string // the file's base name
}

// Less orders keys.
func (a Key) Less(b Key) bool {
	if a.Nanos != b.Nanos {
		return a.Nanos < b.Nanos
	}
	if a.PID != b.PID {
		return a.PID < b.PID
	}
	return a.Name < b.Name
}

// Time is when the hook started.
func (a Key) Time() time.Time { return time.Unix(0, a.Nanos) }

// ParseName parses "<event>.<nanos>.<pid>.json". A date without %N support
// leaves a non-numeric tail on nanos; its leading digits (seconds) still
// order the file roughly, which is the best that can be done. Temp files
// (a leading dot) and anything else are not spooled events.
func ParseName(name string) (Key, bool) {
	if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
		return Key{}, false
	}
	parts := strings.Split(strings.TrimSuffix(name, ".json"), ".")
	if len(parts) != 3 || parts[0] == "" {
		return Key{}, false
	}
	k := Key{Event: parts[0], Name: name}
	digits := parts[1]
	for i, r := range digits {
		if r < '0' || r > '9' {
			digits = digits[:i]
			break
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return Key{}, false
	}
	if len(digits) <= 10 { // seconds only
		n *= int64(time.Second)
	}
	k.Nanos = n
	k.PID, _ = strconv.Atoi(parts[2])
	return k, true
}

// Dir is a spool folder's events, each file parsed once by parse. It is
// not safe for concurrent use: the adapter's spool holds its own lock.
type Dir[E any] struct {
	path  string
	parse func(k Key, raw []byte) E
	files map[string]entry[E] // by file name
}

type entry[E any] struct {
	key Key
	ev  E
}

// NewDir returns the reader of path (which need not exist yet). parse
// turns a file's bytes into an event; it is called once per file.
func NewDir[E any](path string, parse func(k Key, raw []byte) E) *Dir[E] {
	return &Dir[E]{path: path, parse: parse, files: map[string]entry[E]{}}
}

// Path is the folder.
func (d *Dir[E]) Path() string { return d.path }

// Len is how many events are loaded.
func (d *Dir[E]) Len() int { return len(d.files) }

// Load syncs with the folder: parses new files and forgets vanished ones.
// A file that cannot be read now is tried again next time.
func (d *Dir[E]) Load() error {
	ents, err := os.ReadDir(d.path)
	if errors.Is(err, fs.ErrNotExist) {
		clear(d.files)
		return nil
	}
	if err != nil {
		return fmt.Errorf("spool %s: %w", d.path, err)
	}
	present := make(map[string]bool, len(ents))
	for _, de := range ents {
		name := de.Name()
		key, ok := ParseName(name)
		if !ok || de.IsDir() {
			continue
		}
		present[name] = true
		if _, ok := d.files[name]; ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d.path, name))
		if err != nil {
			continue // vanished or unreadable: try again next time
		}
		d.files[name] = entry[E]{key, d.parse(key, b)}
	}
	for name := range d.files {
		if !present[name] {
			delete(d.files, name)
		}
	}
	return nil
}

// Events returns the loaded events in Key order.
func (d *Dir[E]) Events() []E {
	es := d.sorted()
	out := make([]E, len(es))
	for i, e := range es {
		out[i] = e.ev
	}
	return out
}

func (d *Dir[E]) sorted() []entry[E] {
	es := make([]entry[E], 0, len(d.files))
	for _, e := range d.files {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].key.Less(es[j].key) })
	return es
}

// Compact deletes every loaded file whose name keep does not hold, the
// files of the events named first before the others (those whose loss
// must never resurrect anything, so a crash midway leaves only files that
// can no longer matter), each group in Key order; then it sweeps temp
// files older than a minute.
func (d *Dir[E]) Compact(keep map[string]bool, first ...string) error {
	var early, late []string
	for _, e := range d.sorted() {
		switch {
		case keep[e.key.Name]:
		case slices.Contains(first, e.key.Event):
			early = append(early, e.key.Name)
		default:
			late = append(late, e.key.Name)
		}
	}
	err := d.Remove(append(early, late...)...)
	d.SweepTemp(time.Minute)
	return err
}

// Remove deletes the files named, in the order given (callers put the
// files whose loss must never resurrect anything first), and forgets them.
// A file already gone counts as removed.
func (d *Dir[E]) Remove(names ...string) error {
	var errs []error
	for _, n := range names {
		if err := os.Remove(filepath.Join(d.path, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		delete(d.files, n)
	}
	return errors.Join(errs...)
}

// SweepTemp deletes temp files older than age: those of hooks killed
// mid-copy, which never become events.
func (d *Dir[E]) SweepTemp(age time.Duration) {
	ents, err := os.ReadDir(d.path)
	if err != nil {
		return
	}
	for _, de := range ents {
		if n := de.Name(); strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".tmp") {
			if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > age {
				os.Remove(filepath.Join(d.path, n))
			}
		}
	}
}
