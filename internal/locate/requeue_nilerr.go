package locate

import (
	"go/ast"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An error handed on that a test above found nil: a success.

// handedNil reports whether e is a variable the return s of fn hands, as
// an argument, to the call it returns the results of (return
// r.report(ctx, obj, result, err), or the named results assigned from it
// before a bare return), where a test above the call found it nil.
func (a *analysis) handedNil(fn *ssa.Function, s *ast.ReturnStmt, e ast.Expr) bool {
	if _, ok := ast.Unparen(e).(*ast.Ident); !ok {
		return false
	}
	ce, ok := ast.Unparen(a.handedBack(fn, s)).(*ast.CallExpr)
	if !ok || ce.Ellipsis.IsValid() {
		return false
	}
	i := slices.Index(ce.Args, e)
	sc := ssaCallAt(fn, ce.Lparen)
	if i < 0 || sc == nil {
		return false
	}
	args := sc.Call.Args
	off := len(args) - len(ce.Args) // (a static method call's receiver comes first)
	if off != 0 && off != 1 {
		return false
	}
	return dominatingNilTest(sc.Block(), unwrapped(returnedValueOf(args[i+off]))) == testedNil
}

// returnedValueOf is a value seen through conversions between interface
// types.
func returnedValueOf(v ssa.Value) ssa.Value {
	for {
		switch c := v.(type) {
		case *ssa.ChangeInterface:
			v = c.X
		case *ssa.ChangeType:
			v = c.X
		default:
			return v
		}
	}
}
