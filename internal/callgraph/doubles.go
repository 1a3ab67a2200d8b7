package callgraph

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
)

// testDoubleDirs name the directories that hold a tree's test doubles:
// implementations written for tests (a fake cloud, a mock client, a
// plugin an e2e suite registers), kept in ordinary packages so that tests
// of several packages share them.
var testDoubleDirs = map[string]bool{
	"fake": true, "fakes": true, "mock": true, "mocks": true,
	"testing": true, "testutil": true, "testutils": true,
	"test": true, "tests": true, "e2e": true,
}

// isTestDouble reports whether f is declared in a package of test doubles:
// a directory of its import path is one of testDoubleDirs.
func isTestDouble(f *ssa.Function) bool {
	if f.Pkg == nil {
		if o := f.Origin(); o != nil {
			f = o
		} else if f.Parent() != nil {
			return isTestDouble(f.Parent())
		}
	}
	if f.Pkg == nil {
		return false
	}
	for _, dir := range strings.Split(f.Pkg.Pkg.Path(), "/") {
		if testDoubleDirs[dir] {
			return true
		}
	}
	return false
}

// dropTestDoubles removes the edges of dynamic calls (through an interface
// or a func value) made outside the test doubles into them: a controller's
// interface call runs what its program wires in, and a test double that
// reaches the interface only through registration or tests is not that.
// Static calls into such a package stay: the code names it.
func (pr *Program) dropTestDoubles() {
	for fn, n := range pr.graph.Nodes {
		if fn == nil || !isTestDouble(fn) {
			continue
		}
		for _, e := range append(n.In[:0:0], n.In...) {
			if e.Site == nil || e.Site.Common().StaticCallee() != nil || isTestDouble(e.Caller.Func) {
				continue
			}
			deleteEdge(e)
		}
	}
}

// deleteEdge removes e from its caller's Out and its callee's In.
func deleteEdge(e *callgraph.Edge) {
	e.Caller.Out = slices.DeleteFunc(e.Caller.Out, func(o *callgraph.Edge) bool { return o == e })
	e.Callee.In = slices.DeleteFunc(e.Callee.In, func(i *callgraph.Edge) bool { return i == e })
}
