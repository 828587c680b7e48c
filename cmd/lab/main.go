// Command lab serves the lab API and web app and offers a few operator
// subcommands. main only parses the command line and hands off to run, so
// tests can start the real program in-process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand. It gets the arguments after its name.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env Env) error
}

// Env is what a subcommand may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// commands is filled by each subcommand's file in an init function.
var commands = map[string]command{}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	if err := run(ctx, os.Args[1:], env); err != nil {
		fmt.Fprintln(os.Stderr, "lab:", err)
		os.Exit(1)
	}
}

// run dispatches to a subcommand; with none it serves.
func run(ctx context.Context, args []string, env Env) error {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		// `lab help CMD` is `lab CMD --help`.
		if len(args) == 0 {
			usage(env.Stdout)
			return nil
		}
		name, args = args[0], []string{"--help"}
	}
	c, ok := commands[name]
	if !ok {
		usage(env.Stderr)
		return fmt.Errorf("unknown command %q", name)
	}
	if err := c.run(ctx, args, env); !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil // the usage was asked for and printed
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lab [command] [flags]\n\ncommands (lab help COMMAND, or COMMAND --help, for its flags):")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
