package claude

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

var _ agent.Attacher = Provider{}

// External lists the interactive Claude Code processes alive under home,
// from the CLI's session registry (~/.claude/sessions/<pid>.json): the
// session each one is in, its folder, its status and, when it runs in
// tmux, its pane (clikit.ExternalPane; not yet verified to host it). A process
// lab cannot type into says why in ReadOnly.
func (Provider) External(ctx context.Context, home string) ([]conv.ExternalSession, error) {
	ents, err := ReadRegistry(home)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "cannot read the Claude Code session registry")
	}
	projects := filepath.Join(home, ".claude", "projects")
	var out []conv.ExternalSession
	for _, e := range ents {
		if e.Kind != "" && e.Kind != "interactive" {
			continue // scripted (-p) runs have no terminal to share
		}
		x := conv.ExternalSession{
			Provider: Name, PID: e.PID, SessionID: e.SessionID, Cwd: e.Cwd, Name: e.Name, Version: e.Version,
			Status: e.Status, WaitingFor: e.WaitingFor, ProcStart: e.ProcStart,
			TranscriptPath: TranscriptPath(projects, e.Cwd, e.SessionID),
		}
		if e.StartedAt > 0 {
			x.StartedAt = time.UnixMilli(e.StartedAt).UTC()
		}
		x.Title = transcriptTitle(x.TranscriptPath)
		session, pane := registryPane(e.Tmux)
		clikit.ExternalPane(&x, session, pane)
		out = append(out, x)
	}
	return out, nil
}

// TranscriptPath is where the CLI keeps session id's transcript when it
// runs in cwd: the file that exists under projectsDir, else the one the
// CLI will create (projects/<slug of cwd>/<id>.jsonl; it writes lazily, at
// the first prompt).
func TranscriptPath(projectsDir, cwd, id string) string {
	if !ValidSessionID(id) {
		return ""
	}
	if p, err := NewHistory(projectsDir).Path(id); err == nil {
		return p
	}
	if !filepath.IsAbs(cwd) {
		return ""
	}
	return filepath.Join(projectsDir, ProjectSlug(cwd), id+".jsonl")
}

// ProjectSlug is the name of a folder's transcripts directory: the absolute
// path with every byte that is not an ASCII letter or digit replaced by
// "-" ("/tmp/x/work" -> "-tmp-x-work").
func ProjectSlug(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// transcriptTitle is the first prompt of a transcript, "" when there is
// none yet.
func transcriptTitle(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return scanHead(f).title
}

// OpenExternal returns the side channel of an attached process: there is
// no hook spool, so it reads the CLI's registry entry, which names the
// current session (it changes on /clear) and says whether the CLI is busy
// or waits on the operator. Pending dialogs then come from the transcript
// and the pane alone.
func (Provider) OpenExternal(home string, pid int) agent.Side {
	return &externalSide{home: home, pid: pid}
}

// externalSide is the agent.Side of a CLI lab did not start.
type externalSide struct {
	home string
	pid  int

	mu   sync.Mutex
	last RegistryEntry // the last entry read while the process lived
}

func (s *externalSide) Dir() string { return RegistryDir(s.home) }

// Read maps the registry entry: busy is a turn in progress (since its last
// update), idle a turn ended, waiting an announcement that the CLI waits
// on the operator. Once the process is gone the last entry stands.
func (s *externalSide) Read() (agent.SideState, error) {
	e, ok, err := ReadRegistryEntry(s.home, s.pid)
	s.mu.Lock()
	if err == nil && ok && e.Alive() {
		s.last = e
	} else {
		e = s.last
	}
	s.mu.Unlock()
	if e.PID == 0 {
		if err == nil {
			err = fmt.Errorf("no live registry entry for process %d", s.pid)
		}
		return agent.SideState{}, err
	}
	st := agent.SideState{
		SessionID:      e.SessionID,
		TranscriptPath: TranscriptPath(filepath.Join(s.home, ".claude", "projects"), e.Cwd, e.SessionID),
		Source:         "attach",
	}
	at := e.Updated()
	switch e.Status {
	case "busy":
		st.PromptAt = at
	case "idle":
		st.TurnEndAt = at
	case "waiting":
		// A question or plan shows in the transcript; anything else the CLI
		// waits for (a permission prompt) is unstructured until the pane
		// says more. Each announcement is its own mark.
		if !strings.Contains(e.WaitingFor, "input") {
			st.Waiting = fmt.Sprintf("%d:%s", e.UpdatedAt, e.WaitingFor)
		}
	}
	return st, nil
}

// Retire is a no-op: nothing is spooled for an attached process.
func (s *externalSide) Retire(string) error { return nil }

// Compact is a no-op for the same reason.
func (s *externalSide) Compact() error { return nil }
