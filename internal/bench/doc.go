// Package bench measures ctrlcmp's whole flow (load, call graph, locate) on
// one tree against `go vet ./...` on the same tree, so that speed and memory
// are judged relative to a tool every Go developer already waits for.
//
// It holds benchmarks only: `make bench`, or
// BENCH_TREE=/path/to/module go test -bench . ./internal/bench/
package bench
