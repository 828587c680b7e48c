package main

import (
	"context"
	"errors"
	"fmt"

	"lab/internal/netns"
)

func init() {
	commands["jail"] = command{"(used by lab demo) run a CLI in a private network namespace", jailCommand}
}

// exitCode is an error that only carries the exit status of a command
// lab ran in its own place (the jailed CLI's); main exits with it.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// jailCommand runs inside the network namespace `lab demo` makes for a
// Codex run (netns.Jail): it brings loopback up, forwards the scripted
// model's port to lab's unix socket, and runs the CLI until it exits.
// --probe only checks that loopback can be brought up.
func jailCommand(ctx context.Context, args []string, env Env) error {
	fs := newFlags("jail", "--port N --socket PATH -- CLI [ARGS…]", "Runs a CLI in the private network namespace lab demo made for it (see `lab demo`):\nonly loopback, where --port reaches lab's scripted model through --socket.", env)
	port := fs.Int("port", 0, "the loopback port inside the namespace")
	socket := fs.String("socket", "", "the unix socket the port forwards to")
	probe := fs.Bool("probe", false, "only check that the namespace works")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	if *probe {
		return netns.LoopbackUp()
	}
	if *port <= 0 || *socket == "" || fs.NArg() == 0 {
		return errors.New("jail needs --port, --socket and a command after --")
	}
	code, err := netns.Inside(*port, *socket, fs.Args())
	if err != nil {
		return err
	}
	if code != 0 {
		return exitCode(code)
	}
	return nil
}
