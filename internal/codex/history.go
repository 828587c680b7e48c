package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"lab/internal/conv"
)

// Name is the provider id runs and sessions of the Codex CLI carry.
const Name = "codex"

// History discovers the Codex sessions kept under a sessions folder
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl). Each
// file's project path and title are read once per (size, mtime) and
// cached.
type History struct {
	root string

	mu    sync.Mutex
	cache map[string]historyEntry // by rollout path
}

type historyEntry struct {
	size  int64
	mtime time.Time
	cwd   string
	title string
}

// NewHistory returns a History over sessionsDir.
func NewHistory(sessionsDir string) *History {
	return &History{root: sessionsDir, cache: map[string]historyEntry{}}
}

// Root returns the sessions folder.
func (h *History) Root() string { return h.root }

// rolloutName is a rollout's file name: its start time, then the session
// id (a UUID) it is found by.
var rolloutName = regexp.MustCompile(`^rollout-(.+)-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$`)

// datePart matches one level of the YYYY/MM/DD folders.
var datePart = regexp.MustCompile(`^\d{2,4}$`)

// List returns every session on disk, newest first. A sessions folder that
// does not exist yet holds no sessions.
func (h *History) List() ([]conv.Session, error) {
	if _, err := os.Stat(h.root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "cannot read the sessions folder")
	}
	var out []conv.Session
	seen := map[string]bool{}
	for _, dir := range h.dayDirs() {
		files, err := os.ReadDir(dir)
		if err != nil {
			continue // a folder we may not read is not the whole list's failure
		}
		for _, f := range files {
			m := rolloutName.FindStringSubmatch(f.Name())
			if m == nil || f.IsDir() {
				continue
			}
			info, err := f.Info()
			if err != nil {
				continue
			}
			path := filepath.Join(dir, f.Name())
			seen[path] = true
			e := h.entry(path, info)
			out = append(out, conv.Session{
				ID: strings.ToLower(m[2]), Provider: Name, ProjectPath: e.cwd, Title: e.title,
				Size: info.Size(), ModTime: info.ModTime().UTC(),
			})
		}
	}
	h.mu.Lock()
	for p := range h.cache {
		if !seen[p] {
			delete(h.cache, p)
		}
	}
	h.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// dayDirs returns the YYYY/MM/DD folders under the root.
func (h *History) dayDirs() []string {
	dirs := []string{h.root}
	for level := 0; level < 3; level++ {
		var next []string
		for _, d := range dirs {
			ents, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if e.IsDir() && datePart.MatchString(e.Name()) {
					next = append(next, filepath.Join(d, e.Name()))
				}
			}
		}
		dirs = next
	}
	return dirs
}

// Path returns the rollout of session id, or a not-found error.
func (h *History) Path(id string) (string, error) {
	if !ValidSessionID(id) {
		return "", conv.Errorf(conv.EInvalid, "invalid session id")
	}
	matches, err := filepath.Glob(filepath.Join(h.root, "*", "*", "*", "rollout-*-"+strings.ToLower(id)+".jsonl"))
	if err != nil || len(matches) == 0 {
		return "", conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	sort.Strings(matches)
	return matches[0], nil
}

func (h *History) entry(path string, info fs.FileInfo) historyEntry {
	h.mu.Lock()
	e, ok := h.cache[path]
	h.mu.Unlock()
	if ok && e.size == info.Size() && e.mtime.Equal(info.ModTime()) {
		return e
	}
	e = historyEntry{size: info.Size(), mtime: info.ModTime()}
	if f, err := os.Open(path); err == nil {
		e.cwd, e.title = scanHead(f)
		f.Close()
	}
	h.mu.Lock()
	h.cache[path] = e
	h.mu.Unlock()
	return e
}

// Limits of the head scan: the title is the first prompt, which sits near
// the top after the session meta (tens of KB of instructions) and the
// injected context; a file whose head is all giant lines gets no title
// rather than costing a full read.
const (
	headMaxBytes   = 4 << 20
	headMaxLines   = 400
	headMaxLineLen = 1 << 20
	titleMaxRunes  = 200
)

// scanHead reads the start of a rollout for its working directory and its
// first prompt.
func scanHead(r io.Reader) (cwd, title string) {
	br := bufio.NewReaderSize(r, 64<<10)
	var read int
	for n := 0; n < headMaxLines && read < headMaxBytes; n++ {
		line, long, err := readLineCapped(br, headMaxLineLen)
		read += len(line)
		if !long && len(line) > 0 {
			var l struct {
				Type    string `json:"type"`
				Payload struct {
					Type     string          `json:"type"`
					Role     string          `json:"role"`
					Cwd      string          `json:"cwd"`
					Content  json.RawMessage `json:"content"`
					Metadata json.RawMessage `json:"internal_chat_message_metadata_passthrough"`
				} `json:"payload"`
			}
			if json.Unmarshal(line, &l) == nil {
				p := l.Payload
				switch {
				case l.Type == "session_meta" && cwd == "":
					cwd = p.Cwd
				case l.Type == "turn_context" && cwd == "":
					cwd = p.Cwd
				case l.Type == "response_item" && p.Type == "message" && p.Role == "user" && title == "":
					if text := messageText(p.Content); isPrompt(p.Metadata, text) {
						title = promptTitle(text)
					}
				}
			}
		}
		if err != nil || (cwd != "" && title != "") {
			break
		}
	}
	return cwd, title
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

// promptTitle makes a one-line title of a prompt.
func promptTitle(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > titleMaxRunes {
		text = string(r[:titleMaxRunes-1]) + "…"
	}
	return text
}
