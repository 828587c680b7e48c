// Package foldkit is what the agent CLIs' transcript folds share: the
// machinery of turning appended file bytes into the chat stream, apart
// from what a line means. Each adapter's Fold (internal/claude,
// internal/codex) embeds an Input and a Stream and supplies only its own
// rules: the peek that skips bookkeeping lines from their prefix, the
// parse of one line, and what its records do to the stream.
//
//	input.go   appended bytes -> complete lines: the held partial line,
//	           Write and ReadFrom's paths, line and byte counts, where the
//	           line folded now starts (Input)
//	stream.go  the messages, their seqs and hashes, back-patches, windows (Stream)
//	calls.go   tool calls and dialogs by call id, the running tools, results
//	dialog.go  pending dialogs and their resolution, question tools' input
//	state.go   the conversational state the records imply
//	intent.go  the desync warning: what lab meant against what was recorded
//	text.go    small text rules both folds show the same way, tool outputs
//	attach.go  a prompt's images (located in the file) and lab's file lines
//	meter.go   the usage meter: requests or totals, the model, its window and prices
//
// The package knows no CLI's file format; its test support, shared by
// both adapters' fold tests, is internal/foldkit/foldtest, and what both
// benchmark generators share is internal/foldkit/foldgen.
package foldkit
