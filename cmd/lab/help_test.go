package main

import (
	"strings"
	"testing"
)

// TestEverySubcommandHelp: `lab CMD --help`, `-h` and `lab help CMD` print
// a usage that names the command, on stdout, and succeed.
func TestEverySubcommandHelp(t *testing.T) {
	if len(commands) < 5 {
		t.Fatalf("got %d commands; want serve, demo, token, passwd, fold at least", len(commands))
	}
	for name := range commands {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			e := newTestEnv(t, "")
			if err := e.run(args...); err != nil {
				t.Errorf("%q: got %v; want success", args, err)
			}
			if out := e.stdout.String(); !strings.HasPrefix(out, "usage: lab "+name+" ") {
				t.Errorf("%q: stdout %q; want a usage naming lab %s", args, out, name)
			}
			if strings.Contains(e.stderr.String(), "help requested") || strings.Contains(e.stdout.String(), "Usage of") {
				t.Errorf("%q: got the flag package's default help: %q %q", args, e.stdout, e.stderr)
			}
		}
	}
	// Help after a token action is still help.
	e := newTestEnv(t, "")
	if err := e.run("token", "create", "--help"); err != nil || !strings.Contains(e.stdout.String(), "usage: lab token") {
		t.Errorf("token create --help: %v %q", err, e.stdout)
	}
	// A real flag error still fails.
	if err := e.run("demo", "--no-such-flag"); err == nil {
		t.Error("demo --no-such-flag: got nil error")
	}
}
