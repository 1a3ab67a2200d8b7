package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// syncCall returns the call in the worker that passes the dequeued key to
// the sync function: of the calls that hand the key to one of the tree's
// own functions (one left out because of its type errors included: it is
// then an entry whose rows are not settled), the first, in source order,
// whose function returns an error, the result a worker decides the key's
// requeue by; the first of them when none returns one. A tracer, a
// logger or a metric handed the key first returns nothing. A function
// of the tree that only splits the key into its parts (splitsKey) is
// the sync only when the key goes to no other.
func (a *analysis) syncCall(info *types.Info, worker ast.Node, vars map[*types.Var]bool) *call {
	var first, best, split *call
	ast.Inspect(worker, func(n ast.Node) bool {
		if best != nil {
			return false
		}
		e, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if _, lit := ast.Unparen(e.Fun).(*ast.FuncLit); lit {
			return true
		}
		if !slices.ContainsFunc(e.Args, func(arg ast.Expr) bool { return mentions(info, arg, vars) }) && !itemMethod(info, e, vars) {
			return true
		}
		c := a.makeCall(info, e, nil)
		if sf := a.leftOut(c.fn); len(c.own) == 0 && sf != nil {
			c.own = []*ssa.Function{sf}
		}
		if len(c.own) == 0 && c.fn != nil && isInterfaceMethod(c.fn) && itemMethod(info, e, vars) {
			// The item handles itself through an interface (queued
			// events): every method of the tree's that may run.
			if iface, ok := c.fn.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface); ok {
				c.own = a.implementations(iface, c.fn.Name())
			}
		}
		if len(c.own) == 0 || c.known {
			return true
		}
		if splitsKey(info, e) {
			// The tree's own split of the key (ns, name, err :=
			// splitKey(item)): what it hands back is the key's
			// parts, which the sync is handed next.
			if split == nil {
				split = &c
			}
			return true
		}
		if first == nil {
			first = &c
		}
		if returnsError(info, e) {
			best = &c
		}
		return true
	})
	if best == nil {
		best = first
	}
	if best == nil {
		best = split
	}
	if best == nil {
		return nil
	}
	if inner := a.closureSync(info, worker, *best, vars); inner != nil {
		return inner
	}
	return best
}

// itemMethod reports whether e calls a method of the item itself (an
// event queued that handles itself: rh.Handle()), the receiver a variable
// the item reaches.
func itemMethod(info *types.Info, e *ast.CallExpr, vars map[*types.Var]bool) bool {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s, ok := info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && vars[varOf(info, id)]
}

// splitsKey reports whether a call's function hands back only strings
// beside an error, two or more of them: the parts of the key it is
// handed (a namespace and a name), as cache.SplitMetaNamespaceKey does.
// Its results carry the key on; it does no work with it.
func splitsKey(info *types.Info, e *ast.CallExpr) bool {
	sig, ok := types.Unalias(info.TypeOf(e.Fun)).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	strs := 0
	for i := 0; i < sig.Results().Len(); i++ {
		t := sig.Results().At(i).Type()
		if isErrorType(t) {
			continue
		}
		b, ok := t.Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsString == 0 {
			return false
		}
		strs++
	}
	return strs > 1
}
