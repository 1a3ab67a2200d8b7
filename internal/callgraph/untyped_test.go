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
	return append(make([]string, 0, len(s)), (s)[1:]...)
}

func signed(r *missing.Record) bool {
	return r != nil
}

type named interface{ GetName() string }

type builder struct{}

func (builder) Watches(o named, handler func() string) builder { return builder{} }

func registered(on bool) {
	var b builder
	if on {
		b = b.Watches(&missing.Zone{}, func() string { return fmt.Sprint("after") })
	}
	_ = b
}

type local missing.Record

func declared() any {
	return local{}
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
	// registered: a typed argument after the untyped one leaves it
	// found; declared: a literal of a type of the file's own declared as
	// the missing package's has no underlying type.
	want := map[string]bool{"asserted": true, "switched": false, "sliced": false, "signed": true, "registered": true, "declared": true}
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

// TestWaitingOnTask checks the watch on a build after a failed one: a
// goroutine parked elsewhere is not taken for one waiting in the SSA
// builder's task wait.
func TestWaitingOnTask(t *testing.T) {
	id := make(chan uint64)
	release := make(chan struct{})
	go func() {
		id <- goroutineID()
		<-release
	}()
	g := <-id
	defer close(release)
	if g == 0 {
		t.Fatal("goroutineID read no id")
	}
	if waitingOnTask(g) {
		t.Errorf("goroutine %d, parked on a channel of its own, is taken for one waiting on a build", g)
	}
}
