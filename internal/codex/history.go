package codex

import (
	"bytes"
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

// Name is the provider id runs and sessions of the Codex CLI carry.
const Name = "codex"

// LooksLikeRollout reports whether head, the first bytes of a file, starts
// like a rollout: a JSON line whose first keys are timestamp and ordinal
// (Claude Code's transcript lines start otherwise).
func LooksLikeRollout(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimSpace(line)
	return bytes.HasPrefix(line, []byte(`{"timestamp":`)) && bytes.Contains(line, []byte(`,"ordinal":`))
}

// History discovers the Codex sessions kept under a sessions folder
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl). Each
// file's project path and title are read once per (size, mtime) and
// cached.
type History struct {
	root  string
	heads clikit.HeadCache[head] // by rollout path
}

// head is what a rollout's head says.
type head struct {
	cwd, title string
}

// NewHistory returns a History over sessionsDir.
func NewHistory(sessionsDir string) *History {
	return &History{root: sessionsDir}
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
			e := h.heads.Get(path, info, scanHead)
			out = append(out, conv.Session{
				ID: strings.ToLower(m[2]), Provider: Name, ProjectPath: e.cwd, Title: e.title, TranscriptPath: path,
				Size: info.Size(), ModTime: info.ModTime().UTC(),
			})
		}
	}
	h.heads.Keep(seen)
	clikit.SortNewestFirst(out)
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
	return clikit.SessionPath(id, ValidSessionID, filepath.Join(h.root, "*", "*", "*", "rollout-*-"+strings.ToLower(id)+".jsonl"))
}

// headMaxLineLen bounds a line the head scan reads: the title is the first
// prompt, which sits after the session meta (tens of KB of instructions)
// and the injected context; a longer line is passed over.
const headMaxLineLen = 1 << 20

// scanHead reads (in the rollout's line format; Claude Code's is another)
// the start of a rollout for its working directory and its first prompt.
func scanHead(r io.Reader) head {
	var h head
	clikit.ScanHead(r, headMaxLineLen, func(line []byte) bool {
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
			case l.Type == "session_meta" && h.cwd == "":
				h.cwd = p.Cwd
			case l.Type == "turn_context" && h.cwd == "":
				h.cwd = p.Cwd
			case l.Type == "response_item" && p.Type == "message" && p.Role == "user" && h.title == "":
				images := false
				text := userParts(p.Content, func(string, []byte) { images = true })
				if isPrompt(p.Metadata, text, images) {
					h.title = clikit.Title(imageRE.ReplaceAllString(text, ""))
				}
			}
		}
		return h.cwd != "" && h.title != ""
	})
	return h
}
