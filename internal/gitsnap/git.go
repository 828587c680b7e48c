// Package gitsnap keeps snapshots of a run's folder as git tree objects,
// compares them, and makes and removes the git worktrees lab gives runs.
// It runs the git binary; it knows nothing of runs or agent CLIs.
//
// A snapshot never touches the operator's git state. It is taken with
// lab's own index file and lab's own object store (Store): the index is
// seeded once by copying the operator's (a read, keeping the file's
// mtime so git's racy-entry checks stay as strict), `git add --all` brings
// that private index to the working tree (tracked and untracked files,
// .gitignore respected, a submodule's folder kept as its commit), and
// `git write-tree` writes the tree. New objects go into the store, which
// borrows the repository's objects as an alternate (read-only) rather
// than adding to them (and Git LFS's clean filter, which would store
// large files under .git/lfs, is off), so the operator's index, refs,
// reflogs, stash and object store are all left as they were; the only trace is that git
// refreshes the mtime of an existing object it reuses (as any git command
// that writes an object would), which keeps it from their `git gc --prune`
// a while longer.
//
// Why a separate store rather than the repository's own: snapshot trees
// referenced by no ref of the operator's would be pruned by their next
// `git gc` after two weeks, and keeping them reachable would need refs,
// which the operator would see (and "every ref unchanged" is the rule).
// The store is lab's, under the run's folder in the state dir, and goes
// when the run's snapshots are dropped. One gap remains: file content
// that only ever lived in the operator's index (staged, never committed,
// later unstaged) stays in their object store, and their gc may prune it
// after two weeks; a diff needing it then says the content is gone.
package gitsnap

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
)

// ErrNotRepo is returned for a folder that is not inside a git working
// tree.
var ErrNotRepo = errors.New("not inside a git working tree")

// safeConfig keeps git from doing more than asked: no filesystem monitor
// or split index (both would write beside the operator's index), no
// automatic gc or maintenance, no advice on stderr.
var safeConfig = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.splitIndex=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "advice.addEmbeddedRepo=false",
	"-c", "advice.addIgnoredFile=false",
	"-c", "advice.detachedHead=false",
}

// gitCmd is one git invocation.
type gitCmd struct {
	dir   string   // -C
	env   []string // added to the cleaned environment
	stdin io.Reader
	// stdout, when set, receives the output instead of the returned bytes.
	stdout io.Writer
}

// run runs git with args and returns its standard output. A failure
// carries git's standard error.
func (c gitCmd) run(ctx context.Context, args ...string) ([]byte, error) {
	argv := append(append([]string{"-C", c.dir}, safeConfig...), args...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	cmd.Env = append(baseEnv(), c.env...)
	cmd.Stdin = c.stdin
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	if c.stdout != nil {
		cmd.Stdout = c.stdout
	}
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), &Error{Args: args, Stderr: strings.TrimSpace(errb.String()), Err: err}
	}
	return out.Bytes(), nil
}

// Error is a git command that failed.
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	name := "git"
	if len(e.Args) > 0 {
		name += " " + e.Args[0]
	}
	if e.Stderr == "" {
		return name + ": " + e.Err.Error()
	}
	return name + ": " + e.Stderr
}

func (e *Error) Unwrap() error { return e.Err }

// stderrOf is a failed git command's standard error, "" for other errors.
func stderrOf(err error) string {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.Stderr
	}
	return ""
}

// baseEnv is lab's environment without the variables that would point
// git at another repository, index or object store, in the C locale so
// messages read the same everywhere.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "LC_ALL=") || strings.HasPrefix(kv, "LANG=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
}

// lines splits NUL- or newline-terminated output.
func lines(b []byte, sep byte) []string {
	s := strings.TrimSuffix(string(b), string(sep))
	if s == "" {
		return nil
	}
	return strings.Split(s, string(sep))
}
