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
// other. Neither comes first on every pass, so which is the cleanup is
// not settled by the code's order.

// alternativeWork returns, when the cleanup call and another call of the
// branch's work handed the primary object (working) stand in the two arms
// of one if of the branch, that other call and the if; nil otherwise.
func (a *analysis) alternativeWork(branch ast.Node, best call, working []call) (call, *ast.IfStmt) {
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

// armsApart is the innermost if of the branch that holds x in one arm and
// y in the other (its body and its else), or nil.
func (a *analysis) armsApart(branch ast.Node, x, y ast.Node) *ast.IfStmt {
	for _, n := range a.path(x.Pos(), x.End()) {
		if n == branch || n.Pos() < branch.Pos() || n.End() > branch.End() {
			return nil
		}
		ifs, ok := n.(*ast.IfStmt)
		if !ok || ifs.Else == nil {
			continue
		}
		inBody := func(e ast.Node) bool { return within(ifs.Body, e) }
		inElse := func(e ast.Node) bool { return within(ifs.Else, e) }
		if inBody(x) && inElse(y) || inElse(x) && inBody(y) {
			return ifs
		}
	}
	return nil
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
// test that chooses.
func (a *analysis) alternativesWhy(x, y call, test *ast.IfStmt) string {
	t := a.site(test.Pos())
	name := func(c call) string {
		s := a.funcSite(c.own[0])
		return fmt.Sprintf("%s (%s:%d)", c.own[0].String(), s.File, s.Line)
	}
	return fmt.Sprintf("the deletion branch runs %s or %s, as the test at %s:%d decides: which is the cleanup the order of the code does not settle", name(x), name(y), t.File, t.Line)
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
