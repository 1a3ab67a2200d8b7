package callgraph

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// failingImporter imports the standard library and fails on every other
// path, as go/packages leaves a module the proxy does not serve.
type failingImporter struct{ std types.Importer }

func (f failingImporter) Import(path string) (*types.Package, error) {
	if path == "example.com/missing" {
		return nil, errors.New("not served")
	}
	return f.std.Import(path)
}

// TestHoldsUntyped checks that a body using a package that failed to
// import is found, whichever expression uses it: the type checker reports
// the failed import only, and records no type (or an invalid one) where
// the package is used.
func TestHoldsUntyped(t *testing.T) {
	const src = `package p

import (
	"fmt"

	missing "example.com/missing"
)

func asserted(o any) bool {
	fn := func() bool {
		_, ok := o.(*missing.Record)
		return ok
	}
	return fn()
}

func switched(o any) string {
	switch v := o.(type) {
	case fmt.Stringer:
		return v.String()
	}
	return ""
}

func sliced(s []string) []string {
	return (s)[1:]
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: failingImporter{importer.Default()}, Error: func(error) {}}
	conf.Check("p", fset, []*ast.File{f}, info) // the failed import is an error, as expected
	want := map[string]bool{"asserted": true, "switched": false, "sliced": false}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if got := holdsUntyped(fd.Body, info); got != want[fd.Name.Name] {
			t.Errorf("holdsUntyped(%s) = %v, want %v", fd.Name.Name, got, want[fd.Name.Name])
		}
	}
}
