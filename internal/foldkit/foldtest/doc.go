// Package foldtest is the test support both adapters' fold tests share.
// An adapter describes its Fold once (a Harness: how to make, clone and
// compare one) and runs the shared tests and benchmarks on its own
// fixtures and generated files:
//
//	state.go     StateDiff: the whole internal state of two folds compared
//	observe.go   what a fold shows from outside: snapshots (what `lab fold`
//	             prints and goldens hold), observations, first differences
//	fixtures.go  fixture sets and goldens
//	split.go     incremental == whole at every split point, seqs stable
//	             under appends, ReadFrom == Write
//	fuzz.go      the split fuzz target's body, the stream's invariants
//	bench.go     cold folds from memory and from a file, one appended line
//	attach.go    a message's attachments, images found where the fold says
//
// Only tests import it.
package foldtest
