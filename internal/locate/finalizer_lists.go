package locate

// The finalizer lists an assignment or a whole-list setter builds: what an
// append adds, read where it is written or through the values the engine
// settles a local to.

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// appended reports whether e is append(list, x...) and returns the last x.
// An append spreading a slice of a finalizer list appends no new
// finalizer: append(l[:i], l[i+1:]...) removes element i.
func appended(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) < 2 {
		return nil, false
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok {
		return nil, false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return nil, false
	}
	last := c.Args[len(c.Args)-1]
	if c.Ellipsis.IsValid() && fieldOf(info, sliced(last)) == fieldFinalizers {
		return nil, false
	}
	return last, true
}

// sliced is the list a slice expression slices (e itself when it is none).
func sliced(e ast.Expr) ast.Expr {
	if s, ok := ast.Unparen(e).(*ast.SliceExpr); ok {
		return s.X
	}
	return e
}

// appendedValue is the value the right side of an assignment appends, and
// the type information covering it: an append itself, or a value the
// engine settles, every one of its values, to an append of a new element
// (a closure called at once, a helper returning one, a variable assigned
// from them). A list built otherwise (a filtered copy that starts empty,
// the elements it keeps appended one by one) is no add.
func (a *analysis) appendedValue(fn *ssa.Function, info *types.Info, rhs ast.Expr) (ast.Expr, *types.Info, bool) {
	if v, ok := appended(info, rhs); ok {
		return v, info, true
	}
	return a.everyValueAppends(fn, rhs, a.appendsNew)
}

// appendsNew reports whether the append v settles to may append a new
// element: a value of its own (a constant, a parameter, a field, a
// computed string), not only elements read from a list, which a loop
// keeping some of a list's elements copies.
func (a *analysis) appendsNew(v flowVal) bool {
	x, ok := appended(v.b.info, v.e)
	if !ok {
		return false
	}
	for _, xv := range (&flowEngine{a: a}).values(v.b, x) {
		if !xv.zero && !slices.Contains(xv.path, elem) {
			return true
		}
	}
	return false
}

// everyValueAppends is the value the first of e's values appends, and the
// types covering it, when the engine settles e in fn to values that are
// each an append that keep accepts.
func (a *analysis) everyValueAppends(fn *ssa.Function, e ast.Expr, keep func(flowVal) bool) (ast.Expr, *types.Info, bool) {
	b := a.flowBodyOf(fn)
	if b == nil {
		return nil, nil, false
	}
	var out ast.Expr
	var outInfo *types.Info
	for _, v := range (&flowEngine{a: a}).values(b, e) {
		if v.e == nil || v.b == nil || !keep(v) {
			return nil, nil, false
		}
		x, ok := appended(v.b.info, v.e)
		if !ok {
			return nil, nil, false
		}
		if out == nil {
			out, outInfo = x, v.b.info
		}
	}
	return out, outInfo, out != nil
}

// setFinalizersAppended is the finalizer a list handed to a whole-list
// setter appends, read where it is handed or through the values a local
// holds (each of them an append), and the types of the body holding it.
func (a *analysis) setFinalizersAppended(fn *ssa.Function, info *types.Info, list ast.Expr) (ast.Expr, *types.Info, bool) {
	if list == nil {
		return nil, nil, false
	}
	if v, ok := appended(info, list); ok {
		return v, info, true
	}
	if _, local := ast.Unparen(list).(*ast.Ident); !local {
		return nil, nil, false
	}
	// Every value the local may hold appends to an object's own list: a
	// list built up element by element (the ones kept, in a loop) adds
	// nothing new.
	return a.everyValueAppends(fn, list, func(v flowVal) bool {
		c, ok := ast.Unparen(v.e).(*ast.CallExpr)
		return ok && len(c.Args) >= 2 && objectFinalizers(v.b.info, c.Args[0])
	})
}

// objectFinalizers reports whether e is an object's own finalizer list:
// its Finalizers field, or what its GetFinalizers method returns.
func objectFinalizers(info *types.Info, e ast.Expr) bool {
	if fieldOf(info, e) == fieldFinalizers {
		return true
	}
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "GetFinalizers" {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == metaV1
}

// setFinalizersSplit reads, for a local list handed to a whole-list
// setter that holds an append on some paths and not on others (a helper
// that adds or removes as its argument asks: finalizers = append(
// finalizers, f) in one case, finalizers = set.Delete(f).List() in
// another), each value the local may hold: an append of a new element to
// the object's own list (or to the local holding it) is an addition,
// cited at the append; the object's own list handed back as it is is
// neither; a call making another list (set.Delete(f).List()) is a
// removal, cited where it is made. ok is false unless the values are all
// settled so, and hold at least one addition and one removal: a list
// made afresh and filled element by element is read as before.
func (a *analysis) setFinalizersSplit(fn *ssa.Function, list ast.Expr) (adds, removes []finOp, ok bool) {
	id, local := ast.Unparen(list).(*ast.Ident)
	b := a.flowBodyOf(fn)
	if !local || b == nil {
		return nil, nil, false
	}
	v, _ := b.info.Uses[id].(*types.Var)
	for _, fv := range (&flowEngine{a: a}).values(b, list) {
		// A value made in a closure of fn (called at once) is made on
		// fn's path, and cited where it is made.
		if fv.e == nil || fv.b == nil || fv.b.dep || fv.b.decl != b.decl {
			return nil, nil, false
		}
		info := fv.b.info
		if objectFinalizers(info, fv.e) {
			continue
		}
		op := finOp{pos: fv.e.Pos(), info: info, in: fn}
		if x, appends := appended(info, fv.e); appends {
			base := ast.Unparen(fv.e.(*ast.CallExpr).Args[0])
			if bid, isLocal := base.(*ast.Ident); !objectFinalizers(info, base) && !(isLocal && v != nil && info.Uses[bid] == v) {
				return nil, nil, false
			}
			if !a.appendsNew(fv) {
				// An element read from a list (a filtered copy kept
				// element by element): no new finalizer.
				return nil, nil, false
			}
			op.value = x
			adds = append(adds, op)
			continue
		}
		if _, call := ast.Unparen(fv.e).(*ast.CallExpr); !call {
			// A list made afresh (finalizers := []string{}, filled
			// below): a computed list, not a removal from the object's.
			return nil, nil, false
		}
		op.whole = true
		removes = append(removes, op)
	}
	return adds, removes, len(adds) > 0 && len(removes) > 0
}
