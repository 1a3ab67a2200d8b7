package locate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ast/astutil"
)

// TestReachingDefinition: the value a flag holds where an if tests it is
// the assignment every path runs last, or none where a loop, a range, a
// branch or an address taken may store another.
func TestReachingDefinition(t *testing.T) {
	const src = `package p

func f(gone, del bool, xs []bool) {
	flat := false
	flat = flat || del
	if flat {
	}

	branch := false
	if gone {
		branch = true
	}
	if branch {
	}

	looped := gone
	for range xs {
		if looped {
		}
		looped = del
	}

	ranged := gone
	for _, ranged = range xs {
		if ranged {
		}
	}

	held := gone
	take(&held)
	if held {
	}

	if ok := del; ok {
	}
}

func take(*bool) {}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"flat": "flat || del", "branch": "", "looped": "", "ranged": "", "held": "", "ok": "del"}
	ast.Inspect(file, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		id, ok := is.Cond.(*ast.Ident)
		if !ok {
			return true
		}
		w, named := want[id.Name]
		if !named {
			return true
		}
		delete(want, id.Name)
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		got := ""
		if e := reachingIn(info, path, info.Uses[id].(*types.Var)); e != nil {
			got = types.ExprString(e)
		}
		if got != w {
			t.Errorf("%s: reaching definition %q, want %q", id.Name, got, w)
		}
		return true
	})
	for name := range want {
		t.Errorf("%s: no if tests it", name)
	}
}
