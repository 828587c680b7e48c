// Package codex is lab's adapter for the OpenAI Codex CLI: it folds the
// CLI's JSONL rollouts ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl)
// into the provider-neutral chat stream of package conv (messages with
// reparse-stable seqs, dialogs with their recorded outcomes, the derived
// conversational state), and holds the rest of what lab must know about the
// CLI: hook flags and their spool, the screens it draws (questions, plan
// approval, tool approvals) and the keys that answer them, spawn arguments,
// CODEX_HOME seeding, history discovery, and the Codex processes lab did
// not start (attach.go, external.go: found in /proc, as Codex keeps no
// registry of them). Its parts have the same file
// names and shapes as package claude's, so the two adapters read alike.
//
// The fold (fold*.go, line_decode.go, outcome.go, state.go, on
// internal/foldkit's machinery) is incremental: Write appended bytes in any split and the result equals
// folding the whole file at once. It skips bookkeeping lines (world state,
// token counts, turn contexts, the UI's duplicate item events) from a peek
// at their first keys and decodes only the fields the chat shows, so a
// rollout of hundreds of megabytes folds at memory speed in bounded memory.
//
// What the chat shows comes from the model-facing records (response_item:
// messages, reasoning, tool calls and their outputs) and the turn events
// (task_started, task_complete, turn_aborted, errors). Context the CLI
// injects into the conversation (environment context, the turn-aborted
// notice, developer instructions) is not chat.
package codex
