package clikit

import (
	"strconv"
	"strings"

	"lab/internal/conv"
)

// What both adapters share of their slash-command tables: the entries'
// shapes (a command lab sends as it is, one that needs text after its
// name, one it refuses), the table of the newest version at or below a
// run's, and the merge of built-in and custom commands. Each adapter
// holds its own tables, checked against its CLI's menu.

// Reasons lab gives for refusing a built-in command.
const (
	WhyScreen     = "it opens a screen lab cannot drive from here; use a terminal on the run's pane"
	WhyExit       = "it ends the CLI; use Stop instead"
	WhyResume     = "it switches the run to another session; use Resume on an ended run or a history session instead"
	WhyScreenMode = "it changes how the CLI draws its screen, which lab reads"
	WhyEditor     = "it opens a text editor in the terminal"
	WhyUnchecked  = "lab has not checked what it does on the CLI's screen; use a terminal on the run's pane"
)

// Run is a built-in command that takes no text after its name.
func Run(name, desc string) conv.Command {
	return conv.Command{Name: name, Description: desc, Source: conv.SourceBuiltin, Args: conv.ArgsNone}
}

// Optional is a built-in command that may take text after its name.
func Optional(name, desc, hint string) conv.Command {
	c := Run(name, desc)
	c.Args, c.ArgsHint = conv.ArgsOptional, hint
	return c
}

// Required is a built-in command lab sends only with text after its name
// (alone it opens a picker lab cannot drive).
func Required(name, desc, hint string) conv.Command {
	c := Run(name, desc)
	c.Args, c.ArgsHint = conv.ArgsRequired, hint
	return c
}

// Refused is a built-in command lab lists but does not send, saying why.
func Refused(name, desc, why string) conv.Command {
	c := Run(name, desc)
	c.Refused = why
	return c
}

// Fresh is a built-in command that starts a new session (the run follows
// it).
func Fresh(name, desc string) conv.Command {
	c := Run(name, desc)
	c.NewSession = true
	return c
}

// Patched returns base with the descriptions in desc (by name) replaced:
// a later version's table where only wording changed.
func Patched(base []conv.Command, desc map[string]string) []conv.Command {
	out := make([]conv.Command, len(base))
	for i, c := range base {
		if d, ok := desc[c.Name]; ok {
			c.Description = d
		}
		out[i] = c
	}
	return out
}

// CommandTable is the built-in commands of one CLI version.
type CommandTable struct {
	Version  string
	Commands []conv.Command
}

// TableFor returns the commands of the newest table whose version is at
// or below version (by cmp, which reports -1, 0, 1 and whether both
// parse), else the oldest table: a CLI lab was not verified with most
// likely offers what the nearest verified one did. tables are oldest
// first.
func TableFor(tables []CommandTable, version string, cmp func(a, b string) (int, bool)) []conv.Command {
	if len(tables) == 0 {
		return nil
	}
	pick := tables[0]
	for _, t := range tables[1:] {
		if c, ok := cmp(t.Version, version); ok && c <= 0 {
			pick = t
		}
	}
	return pick.Commands
}

// MergeCommands lists the custom commands (in order, dropping any whose
// name is already taken) and then the built-in ones; a built-in name
// wins, as it does in the CLIs' menus.
func MergeCommands(builtin []conv.Command, custom ...[]conv.Command) []conv.Command {
	taken := make(map[string]bool, len(builtin))
	for _, c := range builtin {
		taken[c.Name] = true
	}
	var out []conv.Command
	for _, list := range custom {
		for _, c := range list {
			if taken[c.Name] {
				continue
			}
			taken[c.Name] = true
			out = append(out, c)
		}
	}
	return append(out, builtin...)
}

// CompareVersions compares two CLI versions numerically, part by part:
// -1 when a is older than b, 0 when equal, 1 when newer. ok is false when
// either is not of the form major.minor.patch (a trailing " (Claude Code)"
// or other words after a space are allowed); the result is then 0.
func CompareVersions(a, b string) (cmp int, ok bool) {
	va, oka := versionParts(a)
	vb, okb := versionParts(b)
	if !oka || !okb {
		return 0, false
	}
	for i := range va {
		switch {
		case va[i] < vb[i]:
			return -1, true
		case va[i] > vb[i]:
			return 1, true
		}
	}
	return 0, true
}

// versionParts reads "2.1.328" or "2.1.328 (Claude Code)".
func versionParts(s string) ([3]int, bool) {
	var v [3]int
	s, _, _ = strings.Cut(strings.TrimSpace(s), " ")
	parts := strings.Split(s, ".")
	if len(parts) != len(v) {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || p[0] == '+' {
			return v, false
		}
		v[i] = n
	}
	return v, true
}
