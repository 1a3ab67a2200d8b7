package locate

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// constructedTypes appends to out the tree's concrete types that a call of
// the tree's own constructor hands back behind an interface: the type of
// the value each of its returns converts to the interface. A generic
// constructor (NewReconciler[*T, *L](…) returning &controller[T, L]{…}) is
// read in its instance, where the returned type is instantiated with the
// call's type arguments: the reconciler of that kind.
func (a *analysis) constructedTypes(out []*types.Named, e ast.Expr) []*types.Named {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return out
	}
	for _, fn := range a.callees[call.Lparen] {
		if !a.prog.Own[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ret, ok := instr.(*ssa.Return)
				if !ok {
					continue
				}
				for i := range ret.Results {
					if mi, ok := resultOf(ret, i).(*ssa.MakeInterface); ok {
						out = a.ownNamed(out, mi.X.Type())
					}
				}
			}
		}
	}
	return out
}

// instanceName names a reconciler type: an instance of a generic type by
// its type arguments too (controller[ConfigMap]), so that the controllers
// one generic reconciler makes, one per kind, are told apart.
func instanceName(t *types.Named) string {
	args := t.TypeArgs()
	if args.Len() == 0 {
		return t.Obj().Name()
	}
	var names []string
	for i := 0; i < args.Len(); i++ {
		if n, ok := deref(args.At(i)).(*types.Named); ok {
			names = append(names, n.Obj().Name())
		} else {
			names = append(names, types.TypeString(args.At(i), func(*types.Package) string { return "" }))
		}
	}
	return t.Obj().Name() + "[" + strings.Join(names, ",") + "]"
}

// originType is, for an instance of a generic type (or a pointer to one),
// its generic origin; t otherwise.
func originType(t types.Type) types.Type {
	if n, ok := deref(t).(*types.Named); ok {
		return n.Origin()
	}
	return t
}
