package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"lab/internal/clikit"
)

// RegistryEntry is one file of the CLI's live-session registry,
// ~/.claude/sessions/<pid>.json, which each interactive process keeps
// while it runs (and can leave behind when killed hard).
type RegistryEntry struct {
	PID        int    `json:"pid"`
	SessionID  string `json:"sessionId"`
	Cwd        string `json:"cwd"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`       // "interactive"
	Entrypoint string `json:"entrypoint"` // "cli"
	// Tmux is session:@window.%pane of the pane the CLI runs in; the
	// socket is not recorded.
	Tmux string `json:"tmux"`
	Name string `json:"name"`
	// Status is idle, busy or waiting; WaitingFor says on what (e.g.
	// "permission prompt", "input needed").
	Status     string `json:"status"`
	WaitingFor string `json:"waitingFor"`
	// ProcStart is the process start time in clock ticks since boot (as
	// /proc/<pid>/stat field 22), which tells a live owner from a reused
	// pid.
	ProcStart string `json:"procStart"`
	StartedAt int64  `json:"startedAt"` // unix ms
	UpdatedAt int64  `json:"updatedAt"` // unix ms
}

// Updated is when the CLI last rewrote the entry.
func (e RegistryEntry) Updated() time.Time { return time.UnixMilli(e.UpdatedAt) }

// RegistryDir is the registry directory under home.
func RegistryDir(home string) string { return filepath.Join(home, ".claude", "sessions") }

// ReadRegistryEntry reads the entry of the process pid, reporting false
// when there is none.
func ReadRegistryEntry(home string, pid int) (RegistryEntry, bool, error) {
	b, err := os.ReadFile(filepath.Join(RegistryDir(home), strconv.Itoa(pid)+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return RegistryEntry{}, false, nil
	}
	if err != nil {
		return RegistryEntry{}, false, err
	}
	var e RegistryEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return RegistryEntry{}, false, fmt.Errorf("registry entry %d: %w", pid, err)
	}
	return e, true, nil
}

// ReadRegistry returns the entries whose process is still alive, by pid.
// Unreadable files and entries of dead processes are skipped.
func ReadRegistry(home string) ([]RegistryEntry, error) {
	ents, err := os.ReadDir(RegistryDir(home))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []RegistryEntry
	for _, de := range ents {
		name := de.Name()
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if err != nil || !strings.HasSuffix(name, ".json") {
			continue // the ".key" files and anything else
		}
		e, ok, err := ReadRegistryEntry(home, pid)
		if err != nil || !ok || !e.Alive() {
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}

// Alive reports whether the entry's process still runs: the pid exists
// and, where /proc tells, started when the entry says it did.
func (e RegistryEntry) Alive() bool { return clikit.Alive(e.PID, e.ProcStart) }
