package locate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A deletion branch's work is sometimes one of two: the branch tests
// something (is a child left? is the object orphaning its children?) and
// runs one function of the tree on the object in one arm, another in the
// other, or it switches over the object's finalizers and runs each one's
// cleanup in its own case. Neither comes first on every pass, so which is
// the cleanup is not settled by the code's order.

// alternativeWork returns, when the cleanup call and another call of the
// branch's work handed the primary object (working) stand in the two arms
// of one if of the branch, in two cases of one of its switches, or each in
// an if of its own, that other call and the if or switch; nil otherwise.
func (a *analysis) alternativeWork(branch ast.Node, best call, working []call) (call, ast.Stmt) {
	for _, other := range working {
		if other.expr == best.expr || sameFuncs(other.own, best.own) {
			continue
		}
		if test := a.armsApart(branch, best.expr, other.expr); test != nil {
			return other, test
		}
	}
	return call{}, nil
}

// alternativesWithin says, when the function a deletion branch runs calls
// two functions of the tree handed the primary object in two cases of a
// switch over the object's finalizers (the branch's body moved out of it
// whole: one cleanup per finalizer), which two and the switch; "" when it
// does not. Other alternatives inside the function run are its own
// choices: the function is the cleanup.
func (a *analysis) alternativesWithin(fn *ssa.Function, kind *types.Named) string {
	b := body(fn)
	if b == nil {
		return ""
	}
	info := a.infoAt(b.Pos())
	var working []call
	for _, c := range a.callsIn(fn) {
		if len(c.own) > 0 && !c.known && passesKind(info, c, kind) && !a.predicate(c, nil) {
			working = append(working, c)
		}
	}
	for _, x := range working {
		if other, test := a.alternativeWork(b, x, working); test != nil && a.overFinalizers(info, test) {
			return a.alternativesWhy(x, other, test)
		}
	}
	return ""
}

// overFinalizers reports whether a statement is a switch on the element
// of a range over an object's finalizers (for _, f := range
// obj.GetFinalizers() { switch f { … } }): one cleanup per finalizer.
func (a *analysis) overFinalizers(info *types.Info, st ast.Stmt) bool {
	sw, ok := st.(*ast.SwitchStmt)
	if !ok || sw.Tag == nil {
		return false
	}
	id, ok := ast.Unparen(sw.Tag).(*ast.Ident)
	if !ok {
		return false
	}
	v := info.Uses[id]
	for _, n := range a.path(sw.Pos(), sw.End()) {
		rs, ok := n.(*ast.RangeStmt)
		if !ok {
			continue
		}
		val, ok := rs.Value.(*ast.Ident)
		if !ok || v == nil || info.Defs[val] != v {
			continue
		}
		switch x := ast.Unparen(rs.X).(type) {
		case *ast.SelectorExpr:
			return x.Sel.Name == "Finalizers"
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "GetFinalizers"
		}
	}
	return false
}

// armsApart is the innermost if of the branch that holds x in one arm and
// y in the other (its body and its else), or switch that holds them in two
// of its cases; nil when there is none.
func (a *analysis) armsApart(branch ast.Node, x, y ast.Node) ast.Stmt {
	for _, n := range a.path(x.Pos(), x.End()) {
		if n == branch || n.Pos() < branch.Pos() || n.End() > branch.End() {
			break
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if n.Else == nil {
				continue
			}
			inBody := func(e ast.Node) bool { return within(n.Body, e) }
			inElse := func(e ast.Node) bool { return within(n.Else, e) }
			if inBody(x) && inElse(y) || inElse(x) && inBody(y) {
				return n
			}
		case *ast.SwitchStmt:
			if casesApart(n.Body, x, y) {
				return n
			}
		case *ast.TypeSwitchStmt:
			if casesApart(n.Body, x, y) {
				return n
			}
		}
	}
	// Each run only where a test of its own holds (if !allowed {
	// orphan(obj) }; if reversed { deleteInOrder(obj) }): a pass may run
	// either, both or none.
	gx, gy := a.optionalIf(branch, x), a.optionalIf(branch, y)
	if gx != nil && gy != nil && gx != gy && !within(gx, y) && !within(gy, x) {
		return gx
	}
	return nil
}

// optionalIf is the outermost if without an else, inside branch, whose body
// holds n; nil when n runs on every pass through the branch that reaches it.
func (a *analysis) optionalIf(branch, n ast.Node) *ast.IfStmt {
	var out *ast.IfStmt
	for _, p := range a.path(n.Pos(), n.End()) {
		if p == branch || p.Pos() < branch.Pos() || p.End() > branch.End() {
			break
		}
		if is, ok := p.(*ast.IfStmt); ok && is.Else == nil && within(is.Body, n) {
			out = is
		}
	}
	return out
}

// casesApart reports whether x and y stand in two different cases of a
// switch's body.
func casesApart(body *ast.BlockStmt, x, y ast.Node) bool {
	caseOf := func(e ast.Node) ast.Stmt {
		for _, s := range body.List {
			if within(s, e) {
				return s
			}
		}
		return nil
	}
	cx, cy := caseOf(x), caseOf(y)
	return cx != nil && cy != nil && cx != cy
}

// within reports whether n stands inside outer.
func within(outer, n ast.Node) bool {
	return outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// sameFuncs reports whether two calls may run the same functions.
func sameFuncs(x, y []*ssa.Function) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// alternativesWhy says which functions a deletion branch may run, and the
// test or switch that chooses.
func (a *analysis) alternativesWhy(x, y call, test ast.Stmt) string {
	t := a.site(test.Pos())
	name := func(c call) string {
		s := a.funcSite(c.own[0])
		return fmt.Sprintf("%s (%s:%d)", c.own[0].String(), s.File, s.Line)
	}
	what := "test"
	if is, ok := test.(*ast.IfStmt); !ok {
		what = "switch"
	} else if is.Else == nil {
		return fmt.Sprintf("the deletion branch runs %s where the test at %s:%d holds, and %s under a test of its own: which is the cleanup the order of the code does not settle", name(x), t.File, t.Line, name(y))
	}
	return fmt.Sprintf("the deletion branch runs %s or %s, as the %s at %s:%d decides: which is the cleanup the order of the code does not settle", name(x), name(y), what, t.File, t.Line)
}

// deletesObjects reports whether a function deletes objects, itself or
// through the functions it reaches.
func (a *analysis) deletesObjects(fn *ssa.Function) bool {
	for _, w := range a.writeCalls(a.prog.Reachable(fn)) {
		if w.verb == verbDelete || w.verb == verbDeleteAllOf {
			return true
		}
	}
	return false
}

// paramDispatch is what a function run on the deletion branch hands its
// work to, when it does nothing else: each of its calls of the tree's is a
// method of an interface-typed parameter (resource.Delete(ctx, obj), for a
// list of resources its caller ranges over), whose implementation the
// callers' values choose. It is the implementations those calls may run,
// named with their sites; nil when fn does more, or they are one.
func (a *analysis) paramDispatch(fn *ssa.Function) []string {
	params := map[ssa.Value]bool{}
	for _, p := range fn.Params {
		if types.IsInterface(p.Type()) {
			params[p] = true
		}
	}
	if len(params) == 0 {
		return nil
	}
	invokes := map[ssa.CallInstruction]bool{}
	for _, blk := range fn.Blocks {
		for _, ins := range blk.Instrs {
			ci, ok := ins.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if com := ci.Common(); com.IsInvoke() && params[com.Value] {
				invokes[ci] = true
			} else if callee := com.StaticCallee(); callee != nil && (a.prog.Own[callee] || callee.Origin() != nil && a.prog.Own[callee.Origin()]) {
				return nil // work of its own
			}
		}
	}
	var names []string
	perSite := map[ssa.CallInstruction]int{}
	several := false
	for _, e := range a.prog.CallsFrom(fn) {
		if !invokes[e.Site] || !a.prog.Own[e.Callee.Func] {
			continue
		}
		perSite[e.Site]++
		several = several || perSite[e.Site] > 1
		s := a.funcSite(e.Callee.Func)
		names = append(names, fmt.Sprintf("%s (%s:%d)", e.Callee.Func.String(), s.File, s.Line))
	}
	if !several {
		return nil
	}
	return names
}
