package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// What a requeue waits on, read from the conditions around it. A timed
// requeue under a condition that tests something else than the object (a
// child's readiness, a cache, a value a call computed) waits on that: a
// dependency wait. A condition that tests only the primary object itself
// (its spec, its status, a method or a function of the object alone, a
// switch on one of its fields) chooses what this pass does; it waits on
// nothing, and a requeue under it is the object's own interval. A test of
// the object's deletion is not such a test: a requeue on the deletion
// branch waits for what the deletion waits on.

// requeueGuard is what the conditions around n, within the function that
// holds it (fn, a closure's own body; nil when not known), say of it:
// guardError under a test of an error, guardOther under a test of
// something else than the object, else guardNone. Loops and select cases
// guard what they hold, but a range loop over a slice that holds an
// element on every call of fn (rangesOnce).
func (a *analysis) requeueGuard(info *types.Info, n ast.Node, kind *types.Named, fn *ssa.Function) guard {
	return a.requeueGuardOf(info, n, kind, fn, nil)
}

// storeGuard is requeueGuard for the duration d stored into a result's
// RequeueAfter (res.RequeueAfter = d): a condition that reads only
// variables d itself reads (if d > 0, if deadline != nil { … time.Until(
// *deadline) }) tests whether there is an interval, not something the
// wait depends on, and guards nothing, unless the branch also ends the
// pass early.
func (a *analysis) storeGuard(info *types.Info, d ast.Expr, kind *types.Named, fn *ssa.Function) guard {
	read := readVars(info, d)
	if fd := a.declBodyOf(d); fd != nil {
		// And the variables those it reads are computed from.
		for grown := true; grown; {
			grown = false
			for v := range read {
				for _, rhs := range assignmentsTo(info, fd, v) {
					for w := range readVars(info, rhs) {
						if !read[w] {
							read[w], grown = true, true
						}
					}
				}
			}
		}
	}
	if len(read) == 0 {
		return a.requeueGuard(info, d, kind, fn)
	}
	return a.requeueGuardOf(info, d, kind, fn, func(cond ast.Expr, branch ast.Node) bool {
		if exitsEarly(branch) {
			// The branch ends the pass or the loop early (if left > 0 {
			// res.RequeueAfter = left; return }): a case of its own.
			return false
		}
		vs := readVars(info, cond)
		if len(vs) == 0 {
			return false
		}
		for v := range vs {
			if !read[v] {
				return false
			}
		}
		return true
	})
}

// declBodyOf is the body of the declaration holding n.
func (a *analysis) declBodyOf(n ast.Node) *ast.BlockStmt {
	for _, p := range a.path(n.Pos(), n.End()) {
		if fd, ok := p.(*ast.FuncDecl); ok {
			return fd.Body
		}
	}
	return nil
}

// exitsEarly reports whether a branch holds a return, or a break, continue or
// goto, outside the function literals in it.
func exitsEarly(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			found = true
		}
		return !found
	})
	return found
}

// readVars are the local variables e reads, in the function literals it
// holds too (not package variables, not functions or types).
func readVars(info *types.Info, e ast.Expr) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return true
		}
		out[v] = true
		return true
	})
	return out
}

// requeueGuardOf is requeueGuard, where an if whose condition interval
// reports true of the branch holding n guards nothing.
func (a *analysis) requeueGuardOf(info *types.Info, n ast.Node, kind *types.Named, fn *ssa.Function, interval func(cond ast.Expr, branch ast.Node) bool) guard {
	g := guardNone
	path := a.path(n.Pos(), n.End())
	for i := 1; i < len(path); i++ {
		child := path[i-1]
		switch p := path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return g
		case *ast.IfStmt:
			var bg, eg guard
			if a.ownTest(info, p.Cond, kind) || interval != nil && interval(p.Cond, child) {
				bg, eg = guardNone, guardNone
			} else {
				bg, eg = branchGuards(info, p.Cond)
			}
			switch child {
			case ast.Node(p.Body):
				g = max(g, bg)
			case p.Else:
				g = max(g, eg)
			}
		case *ast.ForStmt:
			if child == ast.Node(p.Body) {
				g = max(g, guardOther)
			}
		case *ast.RangeStmt:
			if child == ast.Node(p.Body) && !a.rangesOnce(info, p, fn) {
				g = max(g, guardOther)
			}
		case *ast.CommClause:
			g = max(g, guardOther)
		case *ast.CaseClause:
			g = max(g, a.caseGuard(info, p, path[i+1:], kind))
		}
	}
	return g
}

// caseGuard is what a case clause says of its body: nothing when its
// switch selects on the object alone (a tag of the object's, constant
// cases; or cases that each test the object alone), else what its
// expressions test, at least another condition. outer are the clause's
// enclosing nodes, innermost first.
func (a *analysis) caseGuard(info *types.Info, cc *ast.CaseClause, outer []ast.Node, kind *types.Named) guard {
	var sw *ast.SwitchStmt
	for _, n := range outer {
		if s, ok := n.(*ast.SwitchStmt); ok {
			sw = s
			break
		}
		if _, ok := n.(*ast.BlockStmt); !ok {
			break
		}
	}
	own := sw != nil && (sw.Tag == nil || a.ownTest(info, sw.Tag, kind)) && (sw.Tag != nil || len(cc.List) > 0)
	for _, e := range cc.List {
		if sw != nil && sw.Tag != nil {
			// A case of a tag: a value the tag is compared with.
			_, ok := ownValue(info, e, kind)
			own = own && ok
			continue
		}
		own = own && a.ownTest(info, e, kind)
	}
	if own {
		return guardNone
	}
	g := guardOther
	for _, e := range cc.List {
		g = max(g, condGuard(info, e))
	}
	return g
}

// ownTest reports whether a condition tests only the primary object: every
// value it reads is a constant or comes from a value of the primary type
// (its fields, its methods, functions handed it and constants), at least
// one does, and it does not test the object's deletion.
func (a *analysis) ownTest(info *types.Info, cond ast.Expr, kind *types.Named) bool {
	if kind == nil || cond == nil {
		return false
	}
	rooted, ok := ownValue(info, cond, kind)
	return ok && rooted && a.deletionTest(info, cond, kind) == 0
}

// ownValue reports whether e reads only constants and values of the
// primary type (ok), and whether it reads one of the latter (rooted).
func ownValue(info *types.Info, e ast.Expr, kind *types.Named) (rooted, ok bool) {
	e = ast.Unparen(e)
	if tv, found := info.Types[e]; found && (tv.Value != nil || tv.IsNil()) {
		return false, true
	}
	if isKindValue(info.TypeOf(e), kind) || isKindInterface(info.TypeOf(e), kind) {
		return true, isLocalValue(info, e)
	}
	all := func(es ...ast.Expr) (bool, bool) {
		rooted := false
		for _, x := range es {
			r, ok := ownValue(info, x, kind)
			if !ok {
				return false, false
			}
			rooted = rooted || r
		}
		return rooted, true
	}
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			return all(x.X)
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT || x.Op == token.AND || x.Op == token.SUB {
			return all(x.X)
		}
	case *ast.StarExpr:
		return all(x.X)
	case *ast.BinaryExpr:
		return all(x.X, x.Y)
	case *ast.IndexExpr:
		return all(x.X, x.Index)
	case *ast.CallExpr:
		if tv, found := info.Types[x.Fun]; found && tv.IsType() {
			return all(x.Args...) // a conversion
		}
		if sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr); isSel {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				// A method of a value read from the object.
				return all(append([]ast.Expr{sel.X}, x.Args...)...)
			}
		}
		if isBuiltin(info, x.Fun, "len") {
			return all(x.Args...)
		}
		if _, isFunc := typeOfCallee(info, x).(*types.Func); isFunc {
			// A function handed the object (and constants) alone.
			rooted, ok := all(x.Args...)
			return rooted, ok && rooted
		}
	}
	return false, false
}

// typeOfCallee is the object a call's function expression names.
func typeOfCallee(info *types.Info, c *ast.CallExpr) types.Object {
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		return info.Uses[f.Sel]
	}
	return nil
}

// isKindInterface reports whether t is an interface the primary type
// implements with a method the primary type declares itself (not one
// promoted from its metadata): a kind's own abstraction (a Resource with
// RequeueInterval()), held by the objects of the kinds that share it, not
// client.Object or metav1.Object, which every object, a child too,
// implements.
func isKindInterface(t types.Type, kind *types.Named) bool {
	if t == nil || kind == nil {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	if !ok || it.NumMethods() == 0 {
		return false
	}
	ptr := types.NewPointer(kind)
	if !types.Implements(ptr, it) {
		return false
	}
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		obj, _, _ := types.LookupFieldOrMethod(ptr, true, m.Pkg(), m.Name())
		f, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		if recv := f.Type().(*types.Signature).Recv(); recv != nil && isKindValue(recv.Type(), kind) {
			return true
		}
	}
	return false
}

// isKindValue reports whether t is the primary type or a pointer to it.
func isKindValue(t types.Type, kind *types.Named) bool {
	if t == nil || kind == nil {
		return false
	}
	n, ok := types.Unalias(deref(t)).(*types.Named)
	return ok && types.Identical(n.Origin(), kind.Origin())
}

// isLocalValue reports whether e names a variable (or what it points to,
// or a field of one) rather than the result of a call.
func isLocalValue(info *types.Info, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := info.Uses[x].(*types.Var)
		return ok
	case *ast.UnaryExpr:
		return isLocalValue(info, x.X)
	case *ast.StarExpr:
		return isLocalValue(info, x.X)
	case *ast.SelectorExpr:
		return isLocalValue(info, x.X)
	}
	return false
}

// rangesOnce reports whether a range loop of fn runs its body at least
// once: it ranges over a slice literal with elements, or over a parameter
// of fn that every call of fn hands such a slice (nonEmpty).
func (a *analysis) rangesOnce(info *types.Info, rs *ast.RangeStmt, fn *ssa.Function) bool {
	switch x := ast.Unparen(rs.X).(type) {
	case *ast.CompositeLit:
		t := info.TypeOf(x)
		if t == nil {
			return false
		}
		_, slice := t.Underlying().(*types.Slice)
		return slice && len(x.Elts) > 0
	case *ast.Ident:
		if fn == nil {
			return false
		}
		for _, p := range fn.Params {
			if p.Object() != nil && p.Object() == info.Uses[x] {
				return a.nonEmpty(p, 0)
			}
		}
	}
	return false
}

// errorIfAround is the nearest if around n that tests an error, when n is
// in its body; nil otherwise.
func (a *analysis) errorIfAround(info *types.Info, n ast.Node) *ast.IfStmt {
	if ifs, inBody := a.nearestErrorIf(info, n); inBody {
		return ifs
	}
	return nil
}

// nearestErrorIf is the nearest if around n that tests an error, with
// whether n stands in its body (else in its else or its condition); nil
// when none is around n in its function.
func (a *analysis) nearestErrorIf(info *types.Info, n ast.Node) (*ast.IfStmt, bool) {
	path := a.path(n.Pos(), n.End())
	for i, p := range path {
		switch x := p.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return nil, false
		case *ast.IfStmt:
			if condGuard(info, x.Cond) == guardError {
				return x, i > 0 && path[i-1] == x.Body
			}
		}
	}
	return nil, false
}

// underErrorPresent reports whether n stands in the body of the nearest if
// that tests an error, and that if's condition tests that an error is
// there (err != nil, len(errs) > 0), alone or with other tests, not what
// it is; or in the else of one that tests only that it is not (if err ==
// nil { … } else { n }).
func (a *analysis) underErrorPresent(info *types.Info, n ast.Node) bool {
	if a.inElseOfNoError(info, n) {
		return true
	}
	cond := a.errorTestAround(info, n)
	found := false
	if cond != nil {
		ast.Inspect(cond, func(m ast.Node) bool {
			if e, ok := m.(ast.Expr); ok {
				if counted, present := errorsCounted(info, e); counted && present {
					found = true
				}
			}
			if b, ok := m.(*ast.BinaryExpr); ok && b.Op == token.NEQ {
				for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
					if t := info.TypeOf(pair[0]); t != nil && isErrorType(t) && isNil(info, pair[1]) {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// inElseOfNoError reports whether the nearest if around n that tests an
// error holds n in its else, and its condition holds only where there is
// no error (branchGuards: its else is a failure path).
func (a *analysis) inElseOfNoError(info *types.Info, n ast.Node) bool {
	ifs, inBody := a.nearestErrorIf(info, n)
	if ifs == nil || inBody || ifs.Else == nil || n.Pos() < ifs.Else.Pos() || n.End() > ifs.Else.End() {
		return false
	}
	_, els := branchGuards(info, ifs.Cond)
	return els == guardError
}
