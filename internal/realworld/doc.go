// Package realworld scores ctrlcmp against answer keys written by hand for
// public controllers that are not in this repository (testdata/realworld,
// one JSON file per tree, with its repository and sha; the held-out half
// under testdata/realworld/heldout). It holds a test only: `make realworld`
// runs it on every key whose tree is checked out under $REALWORLD_DIR and
// skips when there is none, so nothing here needs the network. Each row,
// and each keyed answer beyond the table (interval trace, writes of an
// unchanged pass, drift), is right, wrong and stated as certain, or not
// settled; the test prints rows and answers apart, per tree and per row or
// answer, for the two halves apart, and fails a tree that falls below one
// of its key's ratchets.
package realworld
