package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"lab/internal/store"
)

// StateDir resolves where lab keeps its state: the --state-dir flag value
// when given, else $LAB_STATE_DIR, else $XDG_STATE_HOME/lab, else
// $HOME/.local/state/lab. The result is absolute, so logs name it fully.
func StateDir(flagValue string, getenv func(string) string) (string, error) {
	dir := flagValue
	switch {
	case dir != "":
	case getenv("LAB_STATE_DIR") != "":
		dir = getenv("LAB_STATE_DIR")
	case getenv("XDG_STATE_HOME") != "":
		dir = filepath.Join(getenv("XDG_STATE_HOME"), "lab")
	case getenv("HOME") != "":
		dir = filepath.Join(getenv("HOME"), ".local", "state", "lab")
	default:
		return "", errors.New("cannot tell where to keep state: set --state-dir or LAB_STATE_DIR (HOME is not set)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("state directory %q: %w", dir, err)
	}
	return abs, nil
}

// DBPath is the database file inside a state directory.
func DBPath(stateDir string) string { return filepath.Join(stateDir, "lab.db") }

// OpenStore creates the state directory and opens the database in it. A
// new directory and database file are private to the user: they hold
// password and token hashes. (SQLite gives its -wal and -shm files the
// database file's mode.)
func OpenStore(ctx context.Context, stateDir string) (*store.DB, error) {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory: %w", err)
	}
	path := DBPath(stateDir)
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create database file: %w", err)
	}
	f.Close()
	// The file holds the peers' tokens as they are (they must be sent):
	// one made readable to others (an older lab, a copy) is made private.
	if err := privateFile(path); err != nil {
		return nil, err
	}
	return store.Open(ctx, path)
}

// privateFile takes group and other permissions off path and the SQLite
// files beside it.
func privateFile(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		info, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("database file: %w", err)
		}
		if info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, info.Mode().Perm()&0o700); err != nil {
				return fmt.Errorf("make the database private: %w", err)
			}
		}
	}
	return nil
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (`lab token create NAME --state-dir D`), which
// the flag package alone stops at, and returns the positionals.
func parseInterspersed(fs interface {
	Parse([]string) error
	Args() []string
}, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// maxMachineName bounds this lab's name: it labels runs in a list.
const maxMachineName = 64

// machineName is this lab's name: the one given, else the host name. It
// is shown, never parsed, so only its length and control characters are
// checked.
func machineName(given string) (string, error) {
	name := strings.TrimSpace(given)
	if name == "" {
		h, err := os.Hostname()
		if err != nil || h == "" {
			h = "lab"
		}
		name = h
	}
	if len(name) > maxMachineName || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("--machine %q: want a name of at most %d characters on one line", name, maxMachineName)
	}
	return name, nil
}
