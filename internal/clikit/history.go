package clikit

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"lab/internal/conv"
)

// Limits of a head scan: what a session list shows of a file (its folder,
// its first prompt as the title) sits near its top, so a file whose head
// is all giant lines gets no title rather than costing a full read.
const (
	headMaxBytes  = 4 << 20
	headMaxLines  = 400
	titleMaxRunes = 200
)

// ScanHead reads the start of a session file line by line and gives each
// complete line of at most maxLine bytes to line (a longer one is consumed
// without being kept), until line reports it has all it needs, the file
// ends, or the head's limits (400 lines, 4 MB) are reached.
func ScanHead(r io.Reader, maxLine int, line func(b []byte) (done bool)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var read int
	for n := 0; n < headMaxLines && read < headMaxBytes; n++ {
		b, long, err := readLineCapped(br, maxLine)
		read += len(b)
		if !long && len(b) > 0 && line(b) {
			return
		}
		if err != nil {
			return
		}
	}
}

// readLineCapped returns the next line without its newline; a line longer
// than max is consumed and reported as long, without keeping it.
func readLineCapped(br *bufio.Reader, max int) (line []byte, long bool, err error) {
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		if !long {
			if len(buf)+len(frag) > max {
				long, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), long, err
	}
}

// Title makes a one-line title of a prompt: white space runs folded to
// one space, cut to 200 runes with an ellipsis.
func Title(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > titleMaxRunes {
		text = string(r[:titleMaxRunes-1]) + "…"
	}
	return text
}

// HeadCache remembers what each session file's head says (a value of E),
// read once per (size, mtime) of the file. Its zero value is ready; it is
// safe for concurrent use.
type HeadCache[E any] struct {
	mu sync.Mutex
	m  map[string]headEntry[E] // by file path
}

type headEntry[E any] struct {
	size  int64
	mtime time.Time
	head  E
}

// Get returns what path's head says: cached while info's size and mtime
// are the file's, else read by scan (the zero E when the file will not
// open).
func (c *HeadCache[E]) Get(path string, info fs.FileInfo, scan func(io.Reader) E) E {
	c.mu.Lock()
	e, ok := c.m[path]
	c.mu.Unlock()
	if ok && e.size == info.Size() && e.mtime.Equal(info.ModTime()) {
		return e.head
	}
	e = headEntry[E]{size: info.Size(), mtime: info.ModTime()}
	if f, err := os.Open(path); err == nil {
		e.head = scan(f)
		f.Close()
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]headEntry[E]{}
	}
	c.m[path] = e
	c.mu.Unlock()
	return e.head
}

// Keep forgets every file but those in seen (the files a listing found).
func (c *HeadCache[E]) Keep(seen map[string]bool) {
	c.mu.Lock()
	for p := range c.m {
		if !seen[p] {
			delete(c.m, p)
		}
	}
	c.mu.Unlock()
}

// SortNewestFirst orders sessions newest first (by mtime), by id among
// equals.
func SortNewestFirst(s []conv.Session) {
	sort.SliceStable(s, func(i, j int) bool {
		if !s[i].ModTime.Equal(s[j].ModTime) {
			return s[i].ModTime.After(s[j].ModTime)
		}
		return s[i].ID < s[j].ID
	})
}

// SessionPath returns the file of session id: the first in name order
// that pattern (a filepath.Glob pattern naming id) matches, or a
// not-found error; an id valid does not accept is invalid.
func SessionPath(id string, valid func(string) bool, pattern string) (string, error) {
	if !valid(id) {
		return "", conv.Errorf(conv.EInvalid, "invalid session id")
	}
	matches, err := filepath.Glob(pattern)
	if err != nil || len(matches) == 0 {
		return "", conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	sort.Strings(matches)
	return matches[0], nil
}
