// Package clikit holds what the agent CLIs' adapters (internal/claude,
// internal/codex) share outside the fold (internal/foldkit): rules that
// are the same for every CLI lab drives through a TUI. Its files are named
// for the adapter files that use them:
//
//	validate.go  an answer checked against the pending dialog: its target,
//	             the kind's rules (each CLI's), the questions' shape, free
//	             text, a permission option
//	permission.go  a permission prompt: its call's summary, its options'
//	             roles by their labels (each CLI gives its rules)
//	pane.go      text as a pane shows it: wrapping undone
//	screen.go    the pickers both TUIs show, a pane's lines, row lookups
//	recipe.go    building a recipe's steps (each CLI says which keys act)
//	spawn.go     the binary: finding it, asking its version (cached); argv
//	             flags
//	process.go   a CLI process lab did not start, from /proc: its command
//	             line, environment, open files, start time, liveness, and
//	             the tmux pane it runs in
//	history.go   a session file's head: capped line reading, titles, the
//	             per-file cache of what it says, the newest-first order,
//	             a session's file by glob
//	boxtext.go   an input box compared with a reply the way the terminal
//	             draws it; glyphs.go the character classes and clusters
//	             it needs; typable.go a reply's invisible characters and
//	             the refusal naming those a CLI drops (typing.go)
//
// What each CLI's screens, records and flags mean stays in its adapter.
package clikit
