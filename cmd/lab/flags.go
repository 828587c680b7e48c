package main

import (
	"flag"
	"fmt"
	"strings"
)

// newFlags returns a flag set for subcommand name whose usage names the
// command ("usage: lab NAME SYNOPSIS"), says what it does and lists its
// flags. Asked for with -h or --help it prints to stdout, and run treats
// the resulting flag.ErrHelp as success: help is not a failure.
func newFlags(name, synopsis, about string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet("lab "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: lab %s %s\n", name, synopsis)
		if about != "" {
			fmt.Fprintf(w, "\n%s\n", about)
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// wantsHelp reports whether args ask for help before any "--": then usage
// goes to stdout, where a reader can page it.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch strings.TrimLeft(a, "-") {
		case "h", "help":
			if strings.HasPrefix(a, "-") {
				return true
			}
		}
	}
	return false
}

// parseFlags parses args with fs, sending help to stdout when asked for.
func parseFlags(fs *flag.FlagSet, args []string, env Env) error {
	if wantsHelp(args) {
		fs.SetOutput(env.Stdout)
	}
	return fs.Parse(args)
}

// action is one action of a subcommand (`token create`) and how many
// arguments it takes.
type action struct {
	name string
	args int
}

// parseAction parses a subcommand's flags, which may come anywhere, and
// its action: the first argument, one of actions, followed by exactly as
// many arguments as it takes. A mistake prints the usage. Help goes to
// stdout when asked for.
func parseAction(fs *flag.FlagSet, cmd string, actions []action, args []string, env Env) (string, []string, error) {
	if wantsHelp(args) {
		fs.SetOutput(env.Stdout)
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return "", nil, err
	}
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.name
	}
	if len(pos) == 0 {
		fs.Usage()
		return "", nil, fmt.Errorf("%s: want %s or %s", cmd, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	name, rest := pos[0], pos[1:]
	for _, a := range actions {
		if a.name != name {
			continue
		}
		if len(rest) != a.args {
			fs.Usage()
			return "", nil, fmt.Errorf("%s %s: want %d argument(s), got %d", cmd, name, a.args, len(rest))
		}
		return name, rest, nil
	}
	fs.Usage()
	return "", nil, fmt.Errorf("%s: unknown action %q", cmd, name)
}
