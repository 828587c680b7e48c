package codex

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"lab/internal/clikit"
)

// Codex keeps no registry of its live processes (Claude Code's
// ~/.claude/sessions has no counterpart), so lab finds them in /proc:
//
//   - the binary: the native `codex` (the npm package's `codex` is a Node
//     launcher that runs it as a child; its sandbox helper re-runs the
//     binary under another argv[0]);
//   - an interactive command line: no subcommand, or resume or fork
//     (exec, app-server, mcp-server and the others have no TUI);
//   - the thread it writes: from start-up, before any turn, the TUI holds
//     $CODEX_HOME/thread-writer-locks/<session id>.lock open, which names
//     its session and its CODEX_HOME; once a turn wrote the rollout, it
//     has that file open too (seen on 0.171.0).

// lockName is a thread-writer lock's file name: the session (thread) id.
var lockName = regexp.MustCompile(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.lock$`)

// Process is a live interactive Codex process as /proc shows it.
type Process struct {
	PID       int
	Exe       string
	CodexHome string // the CODEX_HOME its thread lock lies in
	SessionID string // the thread it writes
	// Rollout is the session's rollout: the one the process has open,
	// else the one on disk; "" before its first turn.
	Rollout string
}

// valueFlags are the options of the codex command line that take a
// value as the next argument (0.171.0's `codex --help`).
var valueFlags = []string{"-c", "--config", "--enable", "--disable", "-i", "--image", "-m", "--model", "--local-provider",
	"-p", "--profile", "-s", "--sandbox", "-a", "--ask-for-approval", "-C", "--cd", "--add-dir", "--remote", "--remote-auth-token-env"}

// batchCommands are the subcommands that run without the TUI.
var batchCommands = []string{"exec", "e", "review", "login", "logout", "mcp", "mcp-server", "app-server", "app", "completion",
	"sandbox", "debug", "apply", "a", "cloud", "responses-api-proxy", "stdio-to-uds", "features", "help", "plugin", "generate-ts"}

// Interactive reports whether a codex command line (argv[0] first) opens
// the TUI: its first argument that is not an option or an option's value
// is no batch subcommand (a prompt, resume, fork, or nothing).
func Interactive(args []string) bool {
	if len(args) == 0 || filepath.Base(args[0]) != "codex" {
		return false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return true // a prompt follows
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && slices.Contains(valueFlags, a) {
				i++
			}
		default:
			return !slices.Contains(batchCommands, a)
		}
	}
	return true
}

// FindProcesses lists the interactive Codex processes whose CODEX_HOME is
// codexHome, by pid.
func FindProcesses(codexHome string) []Process {
	var out []Process
	for _, pid := range clikit.Pids() {
		exe := clikit.ProcessExe(pid)
		if filepath.Base(exe) != "codex" {
			continue
		}
		args, err := clikit.ProcessArgs(pid)
		if err != nil || !Interactive(args) {
			continue
		}
		p, ok := ReadProcess(pid)
		if !ok || !sameDir(p.CodexHome, codexHome) {
			continue
		}
		p.Exe = exe
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Process) int { return a.PID - b.PID })
	return out
}

// ReadProcess reads the thread process pid writes from its open files;
// false when it holds no thread lock (it is gone, or not a Codex TUI).
// With several threads (sub-agents) it picks the one whose rollout is
// open, the newest such (session ids are time-ordered UUIDv7s).
func ReadProcess(pid int) (Process, bool) {
	files, err := clikit.OpenFiles(pid)
	if err != nil {
		return Process{}, false
	}
	p := Process{PID: pid}
	var rollouts []string
	for _, f := range files {
		if m := lockName.FindStringSubmatch(filepath.Base(f)); m != nil && filepath.Base(filepath.Dir(f)) == "thread-writer-locks" {
			id := strings.ToLower(m[1])
			if id > p.SessionID {
				p.SessionID, p.CodexHome = id, filepath.Dir(filepath.Dir(f))
			}
		}
		if rolloutName.MatchString(filepath.Base(f)) {
			rollouts = append(rollouts, f)
		}
	}
	if p.SessionID == "" {
		return Process{}, false
	}
	slices.Sort(rollouts)
	for i := len(rollouts) - 1; i >= 0; i-- {
		m := rolloutName.FindStringSubmatch(filepath.Base(rollouts[i]))
		home := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(rollouts[i])))))
		if sameDir(home, p.CodexHome) && lockHeld(files, p.CodexHome, m[2]) {
			p.SessionID, p.Rollout = strings.ToLower(m[2]), rollouts[i]
			return p, true
		}
	}
	if path, err := NewHistory(SessionsDir(p.CodexHome)).Path(p.SessionID); err == nil {
		p.Rollout = path
	}
	return p, true
}

// lockHeld reports whether files hold the thread lock of session id.
func lockHeld(files []string, codexHome, id string) bool {
	want := filepath.Join(codexHome, "thread-writer-locks", strings.ToLower(id)+".lock")
	return slices.ContainsFunc(files, func(f string) bool { return strings.EqualFold(f, want) })
}

// sameDir reports whether a and b name one folder.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}
