// Package bench measures ctrlcmp's whole flow, as a process, on a tree
// against `go vet ./...` and `go list -deps -export ./...` on the same tree,
// so that speed and memory are judged relative to tools every Go developer
// already waits for; and ctrlcmp run again with its result cached.
//
// It holds benchmarks only: `make bench` (the README says which variables
// add which trees).
package bench
