package claude

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// History discovers the Claude Code sessions kept under a projects folder
// (~/.claude/projects/<slug>/<sessionId>.jsonl). Each file's project path
// and title are read once per (size, mtime) and cached.
type History struct {
	root  string
	heads clikit.HeadCache[head] // by transcript path
}

// head is what a transcript's head says.
type head struct {
	cwd, title, session string
}

// NewHistory returns a History over projectsDir.
func NewHistory(projectsDir string) *History {
	return &History{root: projectsDir}
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
			e := h.heads.Get(path, info, scanHead)
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
	h.heads.Keep(seen)
	clikit.SortNewestFirst(out)
	return out, nil
}

// Path returns the transcript path of session id, or a not-found error.
func (h *History) Path(id string) (string, error) {
	return clikit.SessionPath(id, ValidSessionID, filepath.Join(h.root, "*", id+".jsonl"))
}

// headMaxLineLen bounds a line the head scan reads: the lines before the
// first prompt are short; a longer one is passed over.
const headMaxLineLen = 256 << 10

// scanHead reads (in Claude Code's line format; Codex's is another) the
// start of a transcript for its working directory, its first real user
// prompt and its session id.
func scanHead(r io.Reader) head {
	var h head
	clikit.ScanHead(r, headMaxLineLen, func(line []byte) bool {
		var l struct {
			Type        string          `json:"type"`
			Cwd         string          `json:"cwd"`
			SessionID   string          `json:"sessionId"`
			IsMeta      bool            `json:"isMeta"`
			IsSidechain bool            `json:"isSidechain"`
			Message     json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &l) == nil {
			if h.cwd == "" {
				h.cwd = l.Cwd
			}
			if h.session == "" {
				h.session = l.SessionID
			}
			if h.title == "" && l.Type == "user" && !l.IsMeta && !l.IsSidechain {
				h.title = promptTitle(l.Message)
			}
		}
		return h.cwd != "" && h.title != ""
	})
	return h
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
	return clikit.Title(text)
}
