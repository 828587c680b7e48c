// Package claude is lab's adapter for the Claude Code CLI: it folds the
// CLI's JSONL transcripts into the provider-neutral chat stream of package
// conv (messages with reparse-stable seqs, dialogs with their recorded
// outcomes, the derived conversational state), and holds the rest of what
// lab must know about the CLI (hooks and spools, keystroke recipes, spawn
// arguments, the session registry, history discovery).
//
// The fold (fold*.go, line*.go, outcome.go, state.go, on internal/foldkit's
// machinery) is incremental: Write appended bytes in any split and the result equals
// folding the whole file at once. It skips bookkeeping lines from a peek at
// their first key and decodes only the fields the chat shows, so a
// transcript of hundreds of megabytes folds at memory speed in bounded
// memory.
package claude
