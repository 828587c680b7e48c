// Package chat is lab's per-run live view and actions: it follows a run's
// transcript and hook spool into the chat stream, its pending dialog and
// its conversational state, and it acts on the run — answering dialogs
// through keystroke recipes with cursor checkpoints, replying, and
// interrupting — one action at a time per run.
package chat
