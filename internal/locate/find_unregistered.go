package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// unregisteredReconcilers are the tree's types with a controller-runtime
// Reconcile method (taking a reconcile.Request) that no registration or
// worker found leads to, asked for when a registration's reconciler could
// not be followed: a controller started in a way ctrlcmp does not follow
// (a table of constructors filled at run time, an engine of the tree's
// own). Each is located from its Reconcile method, with no registration
// to cite; Locate keeps only those whose kind the re-read settles and no
// other controller has (a wrapper that delegates reads nothing itself).
// A method the found controllers' entries reach (an inner reconciler a
// registered wrapper delegates to) is not one.
func (a *analysis) unregisteredReconcilers(out []*found) []*found {
	var entries []*ssa.Function
	for _, f := range out {
		if f.entry != nil {
			entries = append(entries, f.entry)
		}
	}
	reached := a.prog.Reachable(entries...)
	var more []*found
	for _, fd := range a.ownFuncs() {
		if fd.Recv == nil || fd.Name.Name != methodReconcile || a.generatedAt(fd.Pos()) {
			continue
		}
		info := a.infoAt(fd.Pos())
		fn, ok := info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		recv, ok := deref(fn.Type().(*types.Signature).Recv().Type()).(*types.Named)
		if !ok {
			continue
		}
		entry := a.methodFunc(recv, methodReconcile)
		if entry == nil || !takesRequest(entry) || !returnsResult(entry) || reached.Has(entry) || a.onlyDiscarded(recv) {
			continue
		}
		more = append(more, &found{name: recv.Obj().Name(), style: StyleControllerRuntime, entry: entry,
			keyParams: requestParams(entry), unregistered: true})
	}
	return more
}

// returnsResult reports whether a function returns a reconcile.Result.
func returnsResult(f *ssa.Function) bool {
	res := f.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if typeKey(res.At(i).Type()) == typeResult {
			return true
		}
	}
	return false
}

// onlyDiscarded reports whether the tree makes values of a type only to
// throw them away (_ = &T{…}): made at least once, and never kept.
func (a *analysis) onlyDiscarded(t *types.Named) bool {
	made, kept := false, false
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || kept {
				return !kept
			}
			if n, ok := types.Unalias(info.TypeOf(lit)).(*types.Named); !ok || n.Obj() != t.Obj() {
				return true
			}
			made = true
			kept = !a.discarded(lit)
			return true
		})
	}
	return made && !kept
}

// discarded reports whether a composite literal (or its address) is the
// value of an assignment to the blank identifier.
func (a *analysis) discarded(lit *ast.CompositeLit) bool {
	path := a.path(lit.Pos(), lit.End())
	i := 1
	for i < len(path) {
		if u, ok := path[i].(*ast.UnaryExpr); ok && u.Op == token.AND {
			i++
			continue
		}
		if _, ok := path[i].(*ast.ParenExpr); ok {
			i++
			continue
		}
		break
	}
	if i >= len(path) {
		return false
	}
	as, ok := path[i].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for j, rhs := range as.Rhs {
		if rhs.Pos() <= lit.Pos() && lit.End() <= rhs.End() {
			id, ok := as.Lhs[j].(*ast.Ident)
			return ok && id.Name == "_"
		}
	}
	return false
}
