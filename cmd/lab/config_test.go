package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/store"
)

func init() {
	// Hashing at the production cost takes seconds per password on a busy
	// two-core machine; the cost travels inside each hash, so cheaper
	// parameters change nothing these tests check.
	store.DefaultArgon2Params = store.Argon2Params{Time: 1, MemoryKiB: 64, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// testEnv runs subcommands against a private state directory.
type testEnv struct {
	Env
	state          string
	stdout, stderr *bytes.Buffer
}

func newTestEnv(t *testing.T, stdin string) *testEnv {
	t.Helper()
	e := &testEnv{state: t.TempDir(), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	vars := map[string]string{"LAB_STATE_DIR": e.state, "HOME": t.TempDir()}
	e.Env = Env{Stdin: strings.NewReader(stdin), Stdout: e.stdout, Stderr: e.stderr, Getenv: func(k string) string { return vars[k] }}
	return e
}

func (e *testEnv) run(args ...string) error {
	e.stdout.Reset()
	e.stderr.Reset()
	return run(context.Background(), args, e.Env)
}

func TestStateDir(t *testing.T) {
	for _, tc := range []struct {
		name, flag string
		env        map[string]string
		want       string
		err        bool
	}{
		{"flag wins", "/srv/lab", map[string]string{"LAB_STATE_DIR": "/x", "HOME": "/home/op"}, "/srv/lab", false},
		{"env", "", map[string]string{"LAB_STATE_DIR": "/var/lib/lab", "HOME": "/home/op"}, "/var/lib/lab", false},
		{"xdg", "", map[string]string{"XDG_STATE_HOME": "/home/op/.st", "HOME": "/home/op"}, "/home/op/.st/lab", false},
		{"home", "", map[string]string{"HOME": "/home/op"}, "/home/op/.local/state/lab", false},
		{"nothing", "", map[string]string{}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := StateDir(tc.flag, func(k string) string { return tc.env[k] })
			if (err != nil) != tc.err || got != tc.want {
				t.Fatalf("got %q, %v; want %q (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
	rel, err := StateDir("rel/dir", func(string) string { return "" })
	if err != nil || !filepath.IsAbs(rel) || !strings.HasSuffix(rel, "/rel/dir") {
		t.Fatalf("relative flag: got %q, %v; want it made absolute", rel, err)
	}
	if got := DBPath("/srv/lab"); got != "/srv/lab/lab.db" {
		t.Fatalf("DBPath = %q; want /srv/lab/lab.db", got)
	}
}
