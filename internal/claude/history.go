package claude

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

// History discovers the Claude Code sessions kept under a projects folder
// (~/.claude/projects/<slug>/<sessionId>.jsonl). Each file's project path
// and title are read once per (size, mtime) and cached.
type History struct {
	root string

	mu    sync.Mutex
	cache map[string]historyEntry // by transcript path
}

type historyEntry struct {
	size    int64
	mtime   time.Time
	cwd     string
	title   string
	session string
}

// NewHistory returns a History over projectsDir.
func NewHistory(projectsDir string) *History {
	return &History{root: projectsDir, cache: map[string]historyEntry{}}
}

// Root returns the projects folder.
func (h *History) Root() string { return h.root }

// sessionIDPattern is what a transcript's file name may be; anything else
// is not looked up, so an id can never climb out of the projects folder.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// ValidSessionID reports whether id can name a transcript.
func ValidSessionID(id string) bool { return sessionIDPattern.MatchString(id) }

// List returns every session on disk, newest first. A projects folder that
// does not exist yet holds no sessions.
func (h *History) List() ([]conv.Session, error) {
	dirs, err := os.ReadDir(h.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "cannot read the projects folder")
	}
	var out []conv.Session
	seen := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(h.root, d.Name()))
		if err != nil {
			continue // a folder we may not read is not the whole list's failure
		}
		for _, f := range files {
			name := f.Name()
			id, ok := strings.CutSuffix(name, ".jsonl")
			if !ok || f.IsDir() || !ValidSessionID(id) {
				continue
			}
			info, err := f.Info()
			if err != nil {
				continue
			}
			path := filepath.Join(h.root, d.Name(), name)
			seen[path] = true
			e := h.entry(path, info)
			project := e.cwd
			if project == "" {
				project = d.Name()
			}
			out = append(out, conv.Session{
				ID: id, ProjectPath: project, Title: e.title,
				Size: info.Size(), ModTime: info.ModTime().UTC(),
				TranscriptPath: path,
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

// Path returns the transcript path of session id, or a not-found error.
func (h *History) Path(id string) (string, error) {
	if !ValidSessionID(id) {
		return "", conv.Errorf(conv.EInvalid, "invalid session id")
	}
	matches, err := filepath.Glob(filepath.Join(h.root, "*", id+".jsonl"))
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
		e.cwd, e.title, e.session = scanHead(f)
		f.Close()
	}
	h.mu.Lock()
	h.cache[path] = e
	h.mu.Unlock()
	return e
}

// Limits of the head scan: titles come from the first prompt, which sits
// near the top; a file whose head is all giant lines gets no title rather
// than costing a full read.
const (
	headMaxBytes   = 4 << 20
	headMaxLines   = 400
	headMaxLineLen = 256 << 10
	titleMaxRunes  = 200
)

// scanHead reads the start of a transcript for its working directory, its
// first real user prompt and its session id.
func scanHead(r io.Reader) (cwd, title, session string) {
	br := bufio.NewReaderSize(r, 64<<10)
	var read int
	for n := 0; n < headMaxLines && read < headMaxBytes; n++ {
		line, long, err := readLineCapped(br, headMaxLineLen)
		read += len(line)
		if !long && len(line) > 0 {
			var l struct {
				Type        string          `json:"type"`
				Cwd         string          `json:"cwd"`
				SessionID   string          `json:"sessionId"`
				IsMeta      bool            `json:"isMeta"`
				IsSidechain bool            `json:"isSidechain"`
				Message     json.RawMessage `json:"message"`
			}
			if json.Unmarshal(line, &l) == nil {
				if cwd == "" {
					cwd = l.Cwd
				}
				if session == "" {
					session = l.SessionID
				}
				if title == "" && l.Type == "user" && !l.IsMeta && !l.IsSidechain {
					title = promptTitle(l.Message)
				}
			}
		}
		if err != nil || (cwd != "" && title != "") {
			break
		}
	}
	return cwd, title, session
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

// promptTitle returns the text of a user message that the operator typed,
// or "" for tool results, command echoes and interrupt markers.
func promptTitle(raw json.RawMessage) string {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var text string
	if json.Unmarshal(m.Content, &text) != nil {
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			return ""
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				return ""
			}
			if b.Type == "text" && text == "" {
				text = b.Text
			}
		}
	}
	text = strings.TrimSpace(text)
	if text == "" || strings.HasPrefix(text, "<") || strings.HasPrefix(text, "[Request interrupted") || strings.HasPrefix(text, "Caveat:") {
		return ""
	}
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > titleMaxRunes {
		text = string(r[:titleMaxRunes-1]) + "…"
	}
	return text
}
