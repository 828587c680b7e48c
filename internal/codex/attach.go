package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

var _ agent.Attacher = Provider{}

// codexHome is the CODEX_HOME the provider's runs and history use: its
// own, else home/.codex.
func (p Provider) codexHome(home string) string {
	if p.CodexHome != "" {
		return p.CodexHome
	}
	return filepath.Join(home, ".codex")
}

// External lists the interactive Codex processes alive under the
// provider's CODEX_HOME (FindProcesses): the session each one writes, its
// folder and title from the rollout (the folder it runs in before its
// first turn), and, when it runs in tmux, its pane (not yet verified to
// host it). A process lab cannot type into says why in ReadOnly. Codex
// records no busy or waiting status: Status stays empty.
func (p Provider) External(ctx context.Context, home string) ([]conv.ExternalSession, error) {
	var out []conv.ExternalSession
	for _, proc := range FindProcesses(p.codexHome(home)) {
		x := conv.ExternalSession{Provider: Name, PID: proc.PID, SessionID: proc.SessionID, TranscriptPath: proc.Rollout}
		x.ProcStart, _ = clikit.ProcStart(proc.PID)
		meta := readMeta(proc.Rollout)
		x.Cwd, x.Title, x.Version, x.StartedAt = meta.cwd, meta.title, meta.version, meta.started
		if x.Cwd == "" {
			x.Cwd = clikit.ProcessCwd(proc.PID)
		}
		if x.Version == "" {
			x.Version, _ = CLIVersion(ctx, proc.Exe)
		}
		clikit.ExternalPane(&x, "", "")
		out = append(out, x)
	}
	return out, nil
}

// meta is what lab shows of a rollout before attaching.
type meta struct {
	cwd, title, version string
	started             time.Time
}

// readMeta reads a rollout's folder and title (scanHead) and, from its
// session_meta line, the CLI version and start time; zero when there is
// no rollout yet.
func readMeta(path string) meta {
	if path == "" {
		return meta{}
	}
	f, err := os.Open(path)
	if err != nil {
		return meta{}
	}
	defer f.Close()
	var m meta
	clikit.ScanHead(f, headMaxLineLen, func(line []byte) bool {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Version   string    `json:"cli_version"`
				Timestamp time.Time `json:"timestamp"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &l) == nil && l.Type == "session_meta" {
			m.version, m.started = l.Payload.Version, l.Payload.Timestamp.UTC()
		}
		return true // only the first line
	})
	if _, err := f.Seek(0, io.SeekStart); err == nil {
		h := scanHead(f)
		m.cwd, m.title = h.cwd, h.title
	}
	return m
}

// OpenExternal returns the side channel of an attached Codex process:
// there is no hook spool, so it reads the process's open files for the
// thread it writes (a new one after "clear context") and its rollout.
// Dialogs come from the rollout (a question's call is written while its
// picker shows) and the pane (an approval: Driver.Unannounced).
func (p Provider) OpenExternal(home string, pid int) agent.Side {
	return &externalSide{codexHome: p.codexHome(home), pid: pid}
}

// externalSide is the agent.Side of a Codex process lab did not start.
type externalSide struct {
	codexHome string
	pid       int

	mu   sync.Mutex
	last Process // the last thread read while the process lived
}

// Dir is where a new thread shows first: its lock.
func (s *externalSide) Dir() string { return filepath.Join(s.codexHome, "thread-writer-locks") }

// Read names the current session and rollout. Once the process is gone
// the last reading stands.
func (s *externalSide) Read() (agent.SideState, error) {
	p, ok := ReadProcess(s.pid)
	s.mu.Lock()
	if ok && sameDir(p.CodexHome, s.codexHome) {
		s.last = p
	} else {
		p = s.last
	}
	s.mu.Unlock()
	if p.SessionID == "" {
		return agent.SideState{}, fmt.Errorf("codex process %d writes no thread under %s", s.pid, s.codexHome)
	}
	return agent.SideState{SessionID: p.SessionID, TranscriptPath: p.Rollout, Source: "attach"}, nil
}

// Retire is a no-op: nothing is spooled for an attached process.
func (s *externalSide) Retire(string) error { return nil }

// Compact is a no-op for the same reason.
func (s *externalSide) Compact() error { return nil }
