package locate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// TestEachWrite: every way a file writes a variable is visited, an
// increment among them (a package variable counted up is no fixed value).
func TestEachWrite(t *testing.T) {
	const src = `package p

var a, b, c, d, e, f, g int

func h(m map[int]int) {
	a = 1
	for b, c = range m {
	}
	d++
	e--
	_ = &f
	_ = g
}
`
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	eachWrite(file, func(e ast.Expr, addr *ast.UnaryExpr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			if addr != nil {
				got = append(got, "&"+id.Name)
			} else {
				got = append(got, id.Name)
			}
		}
	})
	want := []string{"a", "b", "c", "d", "e", "&f"}
	if !slices.Equal(got, want) {
		t.Errorf("eachWrite visited %v, want %v", got, want)
	}
}

// TestAssignmentsToWithoutBody checks that a variable of a function
// literal at package level, which has no declaration's body around it,
// has no assignments rather than a walk of a nil body.
func TestAssignmentsToWithoutBody(t *testing.T) {
	v := types.NewVar(token.NoPos, nil, "res", types.Typ[types.Int])
	if got := assignmentsTo(&types.Info{}, nil, v); got != nil {
		t.Errorf("assignmentsTo(nil body) = %v, want none", got)
	}
}
