// Package clitest is what the real-CLI test harnesses (internal/claudetest,
// internal/codextest) share: finding the binary under test, short temp
// folders, polling, a private tmux server and driving a pane (Term),
// waiting for a request to the scripted model, and saving a captured
// conversation as fixtures (capture.go). Each harness keeps what is
// its CLI's own: where it is installed, how its home is seeded, how it is
// spawned and reaches the scripted model.
//
// Only tests import it.
package clitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/fakeapi"
	"lab/internal/tmux"
)

// Bin returns the binary to test: $envVar when set, else rel under the
// module root. installed reports whether an executable file is there.
func Bin(envVar, rel string) (path string, installed bool, err error) {
	if p := os.Getenv(envVar); p != "" {
		path = p
	} else {
		root, err := ModuleRoot()
		if err != nil {
			return "", false, err
		}
		path = filepath.Join(root, rel)
	}
	fi, err := os.Stat(path)
	return path, err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0, nil
}

// FindBin is Bin for a harness's FindCLI: the binary, or an error that
// says how to install it (missing gets the path looked at).
func FindBin(envVar, rel string, missing func(path string) string) (string, error) {
	path, ok, err := Bin(envVar, rel)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New(missing(path))
	}
	return path, nil
}

// MustBin is a harness's CLI: the binary find returns, or the test fails
// (never skips), with find's error under the harness's name.
func MustBin(t testing.TB, harness string, find func() (string, error)) string {
	t.Helper()
	path, err := find()
	if err != nil {
		t.Fatalf("%s: %v", harness, err)
	}
	return path
}

// ModuleRoot finds the directory holding go.mod, walking up from the
// working directory (a test runs in its package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("clitest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// ShortTempDir makes a temp dir with a short path, removed at cleanup.
// tmux sockets must fit in a sockaddr_un (108 bytes), which t.TempDir's
// long names can overflow.
func ShortTempDir(t testing.TB, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	// Resolve symlinks (macOS /tmp, odd TMPDIRs) so paths compare equal to
	// what the CLI reports.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Poll calls cond until it returns true or timeout passes, then fails the
// test with what it was waiting for.
func Poll(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Tmux returns a tmux server on a private socket, killed at cleanup.
func Tmux(t testing.TB) *tmux.Server {
	t.Helper()
	s := tmux.New(filepath.Join(ShortTempDir(t, "labtmux"), "sock"))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.KillServer(ctx)
	})
	return s
}

// WaitRequest waits for a request to the scripted model api matching
// match, failing the test after timeout with what it waited for.
func WaitRequest[R any](t testing.TB, api *fakeapi.Base[R], timeout time.Duration, what string, match func(R) bool) R {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := api.Wait(ctx, match)
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return req
}

// Has is a pane (or file) check: it holds when s contains every one of
// subs.
func Has(subs ...string) func(s string) bool {
	return func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	}
}

// WriteText writes s to path, ending it with a newline, making its
// folder when missing.
func WriteText(t testing.TB, path, s string) {
	t.Helper()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Uploads writes a gray PNG per size into a fresh uploads folder, named
// as lab names uploads ("<16 hex>-shot.png"), and returns their paths:
// images to attach by path.
func Uploads(t testing.TB, sizes ...[2]int) []string {
	t.Helper()
	dir := filepath.Join(ShortTempDir(t, "labup"), "uploads")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i, size := range sizes {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, size[0], size[1]))); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("%016x-shot.png", i))
		if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}
