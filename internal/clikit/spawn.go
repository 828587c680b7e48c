package clikit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"lab/internal/conv"
)

// ResolveBin finds a CLI's binary: bin, or name when bin is empty. A path
// with a slash must exist and be executable; a bare name is looked up in
// PATH. The error of a binary not found ends with install, which says how
// to install it.
func ResolveBin(bin, name, install string) (string, error) {
	p, err := resolveBin(bin, name)
	if err != nil {
		return "", fmt.Errorf("%w; %s", err, install)
	}
	return p, nil
}

func resolveBin(bin, name string) (string, error) {
	if bin == "" {
		bin = name
	}
	if !strings.Contains(bin, "/") {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Errorf("%q not found in PATH", bin)
		}
		return p, nil
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("%s: %w", bin, errors.Unwrap(err))
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", bin)
	}
	return bin, nil
}

// VersionProbe asks a CLI's binary for its version with `bin --version`,
// once per binary file: results are cached by path, size and mtime, so an
// upgrade in place is noticed. Its zero cache is ready; a probe is safe
// for concurrent use.
type VersionProbe struct {
	// Home is the environment variable that points the CLI at its state
	// folder (HOME, CODEX_HOME); --version needs none, so it gets an
	// empty temp folder and touches nothing of the operator's.
	Home string
	// Env is added to the environment after Home.
	Env []string
	// Parse reads the version number from the output; its error is
	// returned as it is, so it names bin.
	Parse func(bin string, out []byte) (string, error)

	cache sync.Map // versionKey -> string
}

type versionKey struct {
	path  string
	size  int64
	mtime time.Time
}

// Version returns bin's version number ("2.1.328").
func (p *VersionProbe) Version(ctx context.Context, bin string) (string, error) {
	fi, err := os.Stat(bin)
	if err != nil {
		return "", err
	}
	key := versionKey{bin, fi.Size(), fi.ModTime()}
	if v, ok := p.cache.Load(key); ok {
		return v.(string), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	home, err := os.MkdirTemp("", "lab-version-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(append(os.Environ(), p.Home+"="+home), p.Env...)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	v, err := p.Parse(bin, out)
	if err != nil {
		return "", err
	}
	p.cache.Store(key, v)
	return v, nil
}

// Flag appends a flag and its value to argv when the value is set.
func Flag(argv []string, name, value string) []string {
	if value == "" {
		return argv
	}
	return append(argv, name, value)
}

// PromptArg appends the first prompt, when set, after "--", so a prompt
// starting with "-" is never taken for a flag.
func PromptArg(argv []string, prompt string) []string { return Flag(argv, "--", prompt) }

// ImagePaths are the paths of the uploads that are images, in order: what
// a CLI takes as image content with the first prompt.
func ImagePaths(files []conv.Upload) []string {
	var out []string
	for _, f := range files {
		if f.Image() {
			out = append(out, f.Path)
		}
	}
	return out
}
