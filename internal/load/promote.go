package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
)

// A Knative-style controller may run a generated reconciler that another
// module holds (net-kourier's KIngress reconciler is generated in
// knative.dev/networking): the generated Reconcile(ctx, key), which re-reads
// the object, keeps its finalizer and writes its status, is then in a
// dependency, whose bodies are not loaded. Such a package is loaded as the
// tree's own: with its syntax and full types, so that the reconcile path
// runs through it as through a generated reconciler of the tree's own.

// generatedRunnerImports are the packages a generated reconciler package
// imports: the controller that runs its Reconcile(ctx, key) as the
// queue's sync function, and the events its Interface returns. An
// informer's or a client's generated injection package imports the first
// only.
var generatedRunnerImports = []string{"knative.dev/pkg/controller", "knative.dev/pkg/reconciler"}

// promoteGenerated marks as own the dependency packages that hold a
// generated reconciler the tree's own code imports: every file generated,
// importing generatedRunnerImports, imported by no other dependency (whose
// types would otherwise hold a copy of it).
func (t *Tree) promoteGenerated(g *graph) {
	byOwn, byDep := map[*node]bool{}, map[*node]bool{}
	for _, n := range g.nodes {
		for _, imp := range n.imports {
			if n.own {
				byOwn[imp] = true
			} else {
				byDep[imp] = true
			}
		}
	}
	for _, n := range g.nodes {
		if n.own || n.listed.Standard || !byOwn[n] || byDep[n] || len(n.pkg.GoFiles) == 0 {
			continue
		}
		imports := n.listed.Imports
		if !slices.ContainsFunc(generatedRunnerImports, func(p string) bool { return !slices.Contains(imports, p) }) && allGenerated(n.pkg.GoFiles) {
			n.own = true
			if t.promoted == nil {
				t.promoted = map[string]bool{}
			}
			t.promoted[filepath.Dir(n.pkg.GoFiles[0])] = true
		}
	}
}

// allGenerated reports whether every file is generated code (a
// `// Code generated … DO NOT EDIT.` comment before its package clause,
// as ast.IsGenerated reads it).
func allGenerated(files []string) bool {
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || !ast.IsGenerated(f) {
			return false
		}
	}
	return true
}
