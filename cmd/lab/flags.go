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
