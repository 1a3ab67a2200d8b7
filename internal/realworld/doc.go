// Package realworld scores ctrlcmp against answer keys written by hand for
// public controllers that are not in this repository (testdata/realworld,
// one JSON file per tree, with its repository and sha). It holds a test
// only: `make realworld` runs it on every key whose tree is checked out
// under $REALWORLD_DIR and skips the rest, so nothing here needs the
// network, and it prints a score per tree and per row.
package realworld
