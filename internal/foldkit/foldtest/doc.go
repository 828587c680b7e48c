// Package foldtest is the test support both adapters' fold tests share:
// whole-state comparison of two folds, and (see the other files) the
// split, golden, fuzz and benchmark scaffolding that is the same for
// every CLI's fold. Only tests import it.
package foldtest
